module github.com/catalogkit/datahub-go

go 1.26

require (
	github.com/google/btree v1.1.3
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/hasura/go-graphql-client v0.16.0
	github.com/vektah/gqlparser/v2 v2.5.64
	go.etcd.io/bbolt v1.4.3
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/coder/websocket v1.8.14 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
