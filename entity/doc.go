// Package entity holds typed DataHub entities: a URN and a struct field
// per aspect, as DataHub's Python SDK v2 has Dataset, MLModel and friends.
//
// Each type ([Dataset], [MLModel], [MLModelGroup], [MLFeature],
// [MLFeatureTable], [MLPrimaryKey], [Container], [DataProcessInstance],
// [DataJob], [DataFlow], [Tag], [GlossaryTerm], [Domain], [CorpUser]) has a
// URN field of package urn's typed URN and a pointer field per aspect of package aspects it offers; a nil field
// means "not loaded" after a read and "not written" on a write. [New]
// returns the empty entity of a URN's type. Constructors cover the common
// cases: [NewDataset] (a description and columns with their types and
// descriptions), [NewMLModel] (a description, hyper-parameters and
// training metrics), [NewTrainingRun] (an ML training run with its
// parameters and metrics, as DataHub's MLflow connector records one).
// A training run's run events, a timeseries aspect, are a list
// ([DataProcessInstance.RunEvents]) that writes append and reads skip.
//
//	u, _ := urn.NewDataset("snowflake", "shop.orders", "PROD")
//	ds := entity.NewDataset(u, "Orders placed on the web shop.",
//		entity.Column{Name: "id", Type: "bigint", Description: "Order id"},
//		entity.Column{Name: "amount", Type: "decimal(10,2)", Description: "Total in EUR"})
//
// The values hold no connection. Package client reads and writes them
// (client.Client.Entities: Get, GetMany, Create, Upsert, Update, Delete);
// an entity read there carries, in its embedded [Meta], the version of
// each aspect read, which Update writes against. [Aspects] lists
// the aspects an entity holds, for writing them with package emitter.
package entity

//go:generate go run ../internal/pdl/gen/entitygen/cmd -out .
