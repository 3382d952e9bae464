package urn_test

import (
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

func Example() {
	d, err := urn.NewDataset("hive", "db.t(1),x", "prod")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d)
	fmt.Println(d.Platform().Name(), d.Name(), d.Env())
	fmt.Println(urn.PathEscape(d.String()))
	// Output:
	// urn:li:dataset:(urn:li:dataPlatform:hive,db.t%281%29%2Cx,PROD)
	// hive db.t%281%29%2Cx PROD
	// urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%25281%2529%252Cx%2CPROD%29
}

func ExampleParse() {
	for _, s := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),address.zip)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:myEntity:(a,b)",
	} {
		u, err := urn.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		switch u := u.(type) {
		case urn.Dataset:
			fmt.Println("dataset", u.Name(), "on", u.Platform().Name())
		case urn.SchemaField:
			fmt.Println("field", u.FieldPath(), "of", u.Parent())
		case urn.DataJob:
			fmt.Println("job", u.JobID(), "of", u.Flow())
		case urn.Generic:
			fmt.Println(u.EntityType(), u.Parts())
		}
	}
	// Output:
	// dataset db.t on hive
	// field address.zip of urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)
	// job load of urn:li:dataFlow:(airflow,daily,PROD)
	// myEntity [a b]
}

func ExampleParseError() {
	_, err := urn.ParseDataset("urn:li:dataset:(a,b)")
	fmt.Println(err)
	fmt.Println(errors.Is(err, datahub.ErrValidation))
	var pe *urn.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Reason)
	}
	// Output:
	// urn: invalid dataset urn "urn:li:dataset:(a,b)": want 3 parts, got 2
	// true
	// want 3 parts, got 2
}

func ExampleEscape() {
	fmt.Println(urn.Escape("Split 1 - final (Investment Income Details"))
	fmt.Println(urn.Escape("a,b␟c 100%"))
	// Output:
	// Split 1 - final %28Investment Income Details
	// a%2Cb%E2%90%9Fc 100%
}

func ExampleNewSchemaField() {
	d := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	f, err := urn.NewSchemaField(d, "Split 1 - final (Investment Income Details")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f)
	// Output:
	// urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),Split 1 - final %28Investment Income Details)
}

func ExampleNewGeneric() {
	u, err := urn.NewGeneric("myEntity", "urn:li:dataFlow:(airflow,daily,PROD)", "load")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u)
	// Output:
	// urn:li:myEntity:(urn:li:dataFlow:(airflow,daily,PROD),load)
}

// Every entity type of DataHub's registry has a URN type whose parts are the
// fields of its key aspect, in order: a data job is its flow and a job id, a
// data process instance a single id.
func ExampleNewDataJob() {
	flow, err := urn.NewDataFlow("airflow", "daily_etl", "prod")
	if err != nil {
		fmt.Println(err)
		return
	}
	job, err := urn.NewDataJob(flow, "load(orders)")
	if err != nil {
		fmt.Println(err)
		return
	}
	run, err := urn.NewDataProcessInstance("run-2024-05-01")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(job)
	fmt.Println(job.Flow().(urn.DataFlow).Orchestrator(), job.JobID())
	fmt.Println(run)
	// Output:
	// urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),load%28orders%29)
	// airflow load%28orders%29
	// urn:li:dataProcessInstance:run-2024-05-01
}
