module github.com/catalogkit/datahub-go

go 1.26

require (
	github.com/google/btree v1.1.3
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	go.etcd.io/bbolt v1.4.3
)

require (
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
