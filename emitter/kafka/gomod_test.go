package kafka_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMainModuleHasNoKafkaDependency checks that SDK users who do not use
// Kafka do not download it: the main module's go.mod and go.sum name none
// of this module's Kafka and Avro libraries.
func TestMainModuleHasNoKafkaDependency(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range []string{"github.com/twmb/franz-go", "github.com/linkedin/goavro", "github.com/hamba/avro"} {
			if strings.Contains(string(data), dep) {
				t.Errorf("the main module's %s names %s; it belongs in emitter/kafka/go.mod only", name, dep)
			}
		}
	}
}
