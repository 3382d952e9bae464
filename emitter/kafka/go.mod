module github.com/catalogkit/datahub-go/emitter/kafka

go 1.26.0

replace github.com/catalogkit/datahub-go => ../..

require (
	github.com/catalogkit/datahub-go v0.1.0
	github.com/google/go-cmp v0.7.0
	github.com/linkedin/goavro/v2 v2.15.0
	github.com/twmb/franz-go v1.22.2
	github.com/twmb/franz-go/pkg/kfake v0.0.0-20260918054303-01f206a7e32c
	github.com/twmb/franz-go/pkg/kmsg v1.15.0
	github.com/twmb/franz-go/pkg/sr v1.8.0
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/golang/snappy v0.0.1 // indirect
	github.com/google/btree v1.1.3 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/vektah/gqlparser/v2 v2.5.64 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
