package kafka

import (
	"context"
	"fmt"
	"sync"

	"github.com/linkedin/goavro/v2"
	"github.com/twmb/franz-go/pkg/sr"
)

// codecs caches the Avro codecs of the schema ids a registry serves.
type codecs struct {
	reg *sr.Client
	mu  sync.Mutex
	m   map[int]*goavro.Codec
}

func newCodecs(url string, opts []sr.ClientOpt) (*codecs, error) {
	reg, err := sr.NewClient(append([]sr.ClientOpt{sr.URLs(url)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("kafka: schema registry client: %w", err)
	}
	return &codecs{reg: reg, m: make(map[int]*goavro.Codec)}, nil
}

// byID returns the codec of the schema registered under id.
func (c *codecs) byID(ctx context.Context, id int) (*goavro.Codec, error) {
	c.mu.Lock()
	codec := c.m[id]
	c.mu.Unlock()
	if codec != nil {
		return codec, nil
	}
	s, err := c.reg.SchemaByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("kafka: schema registry: schema %d: %w", id, err)
	}
	return c.put(id, s)
}

// put compiles and caches the schema s registered under id.
func (c *codecs) put(id int, s sr.Schema) (*goavro.Codec, error) {
	if s.Type != sr.TypeAvro {
		return nil, fmt.Errorf("kafka: schema %d is %s, not Avro", id, s.Type)
	}
	codec, err := goavro.NewCodec(s.Schema)
	if err != nil {
		return nil, fmt.Errorf("kafka: schema %d: %w", id, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[id]; old != nil {
		return old, nil
	}
	c.m[id] = codec
	return codec, nil
}

// writer resolves the schema an Emitter writes with: it registers MCPSchema
// under subject (autoRegister), or uses id, or else the subject's latest
// version.
func (c *codecs) writer(ctx context.Context, subject string, autoRegister bool, id int) (int, *goavro.Codec, error) {
	switch {
	case autoRegister:
		ss, err := c.reg.CreateSchema(ctx, subject, sr.Schema{Schema: MCPSchema, Type: sr.TypeAvro})
		if err != nil {
			return 0, nil, fmt.Errorf("kafka: schema registry: register subject %s: %w", subject, err)
		}
		codec, err := c.put(ss.ID, sr.Schema{Schema: MCPSchema, Type: sr.TypeAvro})
		return ss.ID, codec, err
	case id > 0:
		codec, err := c.byID(ctx, id)
		return id, codec, err
	}
	ss, err := c.reg.SchemaByVersion(ctx, subject, -1)
	if err != nil {
		return 0, nil, fmt.Errorf("kafka: schema registry: latest schema of subject %s: %w", subject, err)
	}
	codec, err := c.put(ss.ID, ss.Schema)
	return ss.ID, codec, err
}
