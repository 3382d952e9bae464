package aspects

// Realistic values for the golden files: for each typed aspect one value
// with every field set ("full") and one with only what the PDL requires
// ("minimal").

const (
	tDataset   = "urn:li:dataset:(urn:li:dataPlatform:hive,analytics.orders,PROD)"
	tUsers     = "urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD)"
	tAlice     = "urn:li:corpuser:alice"
	tBob       = "urn:li:corpuser:bob"
	tIngestion = "urn:li:corpuser:datahub"
	tT0        = int64(1700000000000)
	tT1        = int64(1700003600000)
)

func fullAttribution() *MetadataAttribution {
	return &MetadataAttribution{
		Time:         tT0,
		Actor:        tIngestion,
		Source:       Ptr("urn:li:test:pii-columns-tagged"),
		SourceDetail: map[string]string{"rule": "name matches (?i)email"},
	}
}

func fullStamp(t int64, actor string) AuditStamp {
	return AuditStamp{Time: t, Actor: actor, Impersonator: Ptr("urn:li:corpuser:svc-ingest"), Message: Ptr("synced from Hive metastore")}
}

func fullTags() *GlobalTags {
	return &GlobalTags{Tags: []TagAssociation{
		{Tag: "urn:li:tag:pii", Context: Ptr("column holds e-mail addresses"), Attribution: fullAttribution()},
		{Tag: "urn:li:tag:gold"},
	}}
}

func fullTerms() *GlossaryTerms {
	return &GlossaryTerms{
		Terms: []GlossaryTermAssociation{
			{URN: "urn:li:glossaryTerm:Customer.Email", Actor: Ptr(tAlice), Context: Ptr("reviewed by data governance"), Attribution: fullAttribution()},
		},
		AuditStamp: AuditStamp{Time: tT0, Actor: tAlice},
	}
}

func fullVersion(tag string) *VersionTag {
	return &VersionTag{VersionTag: Ptr(tag), MetadataAttribution: &MetadataAttribution{Time: tT0, Actor: tAlice}}
}

func fullSchemaFields() []SchemaField {
	return []SchemaField{
		{
			FieldPath:         "order_id",
			JSONPath:          Ptr("$.order_id"),
			Nullable:          false,
			Description:       Ptr("Primary key of the order."),
			Label:             Ptr("Order ID"),
			Created:           &AuditStamp{Time: tT0, Actor: tAlice},
			LastModified:      &AuditStamp{Time: tT1, Actor: tBob},
			Type:              DataType(NumberType{}),
			NativeDataType:    "bigint",
			Recursive:         false,
			GlobalTags:        &GlobalTags{Tags: []TagAssociation{{Tag: "urn:li:tag:key"}}},
			GlossaryTerms:     &GlossaryTerms{Terms: []GlossaryTermAssociation{{URN: "urn:li:glossaryTerm:Order.ID"}}, AuditStamp: AuditStamp{Time: tT0, Actor: tAlice}},
			IsPartOfKey:       true,
			IsPartitioningKey: Ptr(false),
			JSONProps:         Ptr(`{"native":{"precision":19}}`),
		},
		{FieldPath: "customer_email", Nullable: true, Type: DataType(StringType{}), NativeDataType: "varchar(255)", GlobalTags: fullTags()},
		{FieldPath: "is_gift", Type: DataType(BooleanType{}), NativeDataType: "boolean"},
		{FieldPath: "order_date", Type: DataType(DateType{}), NativeDataType: "date", IsPartitioningKey: Ptr(true)},
		{FieldPath: "order_time", Type: DataType(TimeType{}), NativeDataType: "timestamp"},
		{FieldPath: "status", Type: DataType(EnumType{}), NativeDataType: "enum('new','paid','shipped')"},
		{FieldPath: "receipt_pdf", Type: DataType(BytesType{}), NativeDataType: "binary"},
		{FieldPath: "checksum", Type: DataType(FixedType{}), NativeDataType: "fixed(16)"},
		{FieldPath: "legacy_flag", Nullable: true, Type: DataType(NullType{}), NativeDataType: "void"},
		{FieldPath: "line_items", Type: DataType(ArrayType{NestedType: []string{"struct<sku:string,qty:int>"}}), NativeDataType: "array<struct<sku:string,qty:int>>"},
		{FieldPath: "line_items.sku", Type: DataType(RecordType{}), NativeDataType: "struct<sku:string,qty:int>", Recursive: true},
		{FieldPath: "attributes", Type: DataType(MapType{KeyType: Ptr("string"), ValueType: Ptr("string")}), NativeDataType: "map<string,string>"},
		{FieldPath: "payment", Type: DataType(UnionType{NestedTypes: []string{"card", "voucher"}}), NativeDataType: "uniontype<card,voucher>"},
	}
}

// goldenValues lists the golden cases; the file of a case is
// testdata/<aspect name>.<variant>.json.
func goldenValues() []struct {
	variant string
	value   Aspect
} {
	type c = struct {
		variant string
		value   Aspect
	}
	return []c{
		{"full", MLFeatureProperties{
			CustomProperties: map[string]string{"feast_entity": "user_id", "ttl": "86400s"},
			Description:      Ptr("Average order value of the user over the last 30 days."),
			DataType:         Ptr(MLFeatureDataTypeContinuous),
			Version:          fullVersion("3"),
			Sources:          []string{tDataset, tUsers},
		}},
		{"minimal", MLFeatureProperties{}},

		{"full", MLFeatureTableProperties{
			CustomProperties: map[string]string{"online_store": "redis"},
			Description:      Ptr("Features of users, keyed by user id."),
			MLFeatures:       []string{"urn:li:mlFeature:(user_features,avg_order_value_30d)", "urn:li:mlFeature:(user_features,orders_7d)"},
			MLPrimaryKeys:    []string{"urn:li:mlPrimaryKey:(user_features,user_id)"},
		}},
		{"minimal", MLFeatureTableProperties{}},

		{"full", MLModelProperties{
			CustomProperties: map[string]string{"framework": "xgboost", "framework_version": "2.0.3"},
			ExternalURL:      Ptr("https://mlflow.example.com/#/models/churn/versions/7"),
			TrainingJobs:     []string{"urn:li:dataJob:(urn:li:dataFlow:(airflow,train_churn,prod),fit)"},
			DownstreamJobs:   []string{"urn:li:dataJob:(urn:li:dataFlow:(airflow,score_churn,prod),score)"},
			Name:             Ptr("churn-classifier"),
			Description:      Ptr("Predicts 30-day churn for active customers."),
			Date:             Ptr(tT0),
			Created:          &TimeStamp{Time: tT0, Actor: Ptr(tAlice)},
			LastModified:     &TimeStamp{Time: tT1},
			Version:          fullVersion("7"),
			Type:             Ptr("Gradient boosted trees"),
			HyperParameters: map[string]HyperParameterValueType{
				"objective":     HyperParameterString("binary:logistic"),
				"max_depth":     HyperParameterInt(6),
				"subsample":     HyperParameterFloat(0.8),
				"learning_rate": HyperParameterDouble(0.05),
				"early_stop":    HyperParameterBool(true),
			},
			HyperParams: []MLHyperParam{
				{Name: "max_depth", Description: Ptr("Maximum tree depth"), Value: Ptr("6"), CreatedAt: Ptr(tT0)},
				{Name: "n_estimators", Value: Ptr("400")},
			},
			TrainingMetrics: []MLMetric{
				{Name: "auc", Description: Ptr("Area under the ROC curve on the validation split"), Value: Ptr("0.913"), CreatedAt: Ptr(tT0)},
			},
			OnlineMetrics: []MLMetric{{Name: "precision_at_10pct", Value: Ptr("0.62")}},
			MLFeatures:    []string{"urn:li:mlFeature:(user_features,avg_order_value_30d)"},
			Tags:          []string{"churn", "production"},
			Deployments:   []string{"urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)"},
			Groups:        []string{"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"},
		}},
		{"minimal", MLModelProperties{}},

		{"full", MLModelGroupProperties{
			CustomProperties: map[string]string{"owner_team": "growth-ml"},
			TrainingJobs:     []string{"urn:li:dataJob:(urn:li:dataFlow:(airflow,train_churn,prod),fit)"},
			DownstreamJobs:   []string{"urn:li:dataJob:(urn:li:dataFlow:(airflow,score_churn,prod),score)"},
			ExternalURL:      Ptr("https://mlflow.example.com/#/models/churn"),
			Name:             Ptr("churn"),
			Description:      Ptr("All training runs of the churn model."),
			CreatedAt:        Ptr(tT0),
			Created:          &TimeStamp{Time: tT0, Actor: Ptr(tAlice)},
			LastModified:     &TimeStamp{Time: tT1, Actor: Ptr(tBob)},
			Version:          fullVersion("7"),
		}},
		{"minimal", MLModelGroupProperties{}},

		{"full", DatasetProperties{
			CustomProperties: map[string]string{"table_type": "MANAGED_TABLE", "transient_lastDdlTime": "1699999999"},
			ExternalURL:      Ptr("https://hue.example.com/metastore/table/analytics/orders"),
			Name:             Ptr("orders"),
			QualifiedName:    Ptr("analytics.orders"),
			Description:      Ptr("One row per customer order."),
			URI:              Ptr("hdfs:///warehouse/analytics.db/orders"),
			Created:          &TimeStamp{Time: tT0, Actor: Ptr(tAlice)},
			LastModified:     &TimeStamp{Time: tT1},
			Tags:             []string{"legacy-tag"},
		}},
		{"minimal", DatasetProperties{}},

		{"full", SchemaMetadata{
			SchemaName:   "analytics.orders",
			Platform:     "urn:li:dataPlatform:hive",
			Version:      3,
			Created:      AuditStamp{Time: tT0, Actor: tAlice},
			LastModified: fullStamp(tT1, tBob),
			Deleted:      &AuditStamp{Time: tT1, Actor: tBob},
			Dataset:      Ptr(tDataset),
			Cluster:      Ptr("prod-hive"),
			Hash:         "9f2c51d0",
			PlatformSchema: KafkaSchema{
				DocumentSchema:     `{"type":"record","name":"Order","fields":[{"name":"order_id","type":"long"}]}`,
				DocumentSchemaType: Ptr("AVRO"),
				KeySchema:          Ptr(`"long"`),
				KeySchemaType:      Ptr("AVRO"),
			},
			Fields:      fullSchemaFields(),
			PrimaryKeys: []string{"order_id"},
			ForeignKeysSpecs: map[string]ForeignKeySpec{
				"fk_customer": {ForeignKey: DatasetFieldForeignKey{ParentDataset: tUsers, CurrentFieldPaths: []string{"customer_email"}, ParentField: "email"}},
				"fk_urn":      {ForeignKey: UrnForeignKey{CurrentFieldPath: "customer_urn"}},
			},
			ForeignKeys: []ForeignKeyConstraint{{
				Name:           "fk_customer",
				ForeignFields:  []string{"urn:li:schemaField:(" + tUsers + ",email)"},
				SourceFields:   []string{"urn:li:schemaField:(" + tDataset + ",customer_email)"},
				ForeignDataset: tUsers,
			}},
		}},
		{"minimal", SchemaMetadata{
			SchemaName:     "analytics.orders",
			Platform:       "urn:li:dataPlatform:hive",
			PlatformSchema: OtherSchema{RawSchema: ""},
		}},

		{"full", EditableDatasetProperties{
			Created:      AuditStamp{Time: tT0, Actor: tAlice},
			LastModified: fullStamp(tT1, tBob),
			Deleted:      &AuditStamp{Time: tT1, Actor: tBob},
			Description:  Ptr("Orders placed on the **web shop**.\n\nRefreshed hourly."),
			Name:         Ptr("Web shop orders"),
		}},
		{"minimal", EditableDatasetProperties{}},

		{"full", InstitutionalMemory{Elements: []InstitutionalMemoryMetadata{
			{
				URL:         "https://wiki.example.com/data/orders",
				Description: "Orders table design document",
				CreateStamp: AuditStamp{Time: tT0, Actor: tAlice},
				UpdateStamp: &AuditStamp{Time: tT1, Actor: tBob},
				Settings:    &InstitutionalMemoryMetadataSettings{ShowInAssetPreview: true},
			},
			{URL: "https://runbooks.example.com/orders", Description: "On-call runbook", CreateStamp: AuditStamp{Time: tT1, Actor: tBob}},
		}}},
		{"minimal", InstitutionalMemory{}},

		{"full", EditableSchemaMetadata{
			Created:      AuditStamp{Time: tT0, Actor: tAlice},
			LastModified: AuditStamp{Time: tT1, Actor: tBob},
			Deleted:      &AuditStamp{Time: tT1, Actor: tBob},
			EditableSchemaFieldInfo: []EditableSchemaFieldInfo{
				{FieldPath: "customer_email", Description: Ptr("Customer e-mail, **PII**."), GlobalTags: fullTags(), GlossaryTerms: fullTerms()},
				{FieldPath: "[version=2.0].[type=struct].[type=long].order_id", Description: Ptr("Order key.")},
			},
		}},
		{"minimal", EditableSchemaMetadata{}},

		{"full", DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "analytics.orders", Origin: FabricProd}},
		{"minimal", DatasetKey{Platform: "urn:li:dataPlatform:s3", Name: "raw/events", Origin: FabricDev}},
		{"full", MLFeatureKey{FeatureNamespace: "user_features", Name: "avg_order_value_30d"}},
		{"minimal", MLFeatureKey{FeatureNamespace: "ns", Name: "f"}},
		{"full", MLFeatureTableKey{Platform: "urn:li:dataPlatform:feast", Name: "user_features"}},
		{"minimal", MLFeatureTableKey{Platform: "urn:li:dataPlatform:feast", Name: "t"}},
		{"full", MLModelKey{Platform: "urn:li:dataPlatform:mlflow", Name: "churn-classifier", Origin: FabricProd}},
		{"minimal", MLModelKey{Platform: "urn:li:dataPlatform:sagemaker", Name: "m", Origin: FabricTest}},
		{"full", MLModelGroupKey{Platform: "urn:li:dataPlatform:mlflow", Name: "churn", Origin: FabricProd}},
		{"minimal", MLModelGroupKey{Platform: "urn:li:dataPlatform:mlflow", Name: "g", Origin: FabricQA}},
		{"full", DataPlatformKey{PlatformName: "hive"}},
		{"minimal", DataPlatformKey{PlatformName: "x"}},
		{"full", TestKey{ID: "has-owner"}},
		{"minimal", TestKey{ID: "t"}},

		{"full", Status{Removed: true, LifecycleStage: Ptr("urn:li:lifecycleStageType:archived"), LifecycleLastUpdated: &AuditStamp{Time: tT1, Actor: tBob}}},
		{"minimal", Status{}},

		{"full", EditableMLFeatureProperties{Description: Ptr("AOV over 30 days; see the **feature docs**.")}},
		{"minimal", EditableMLFeatureProperties{}},
		{"full", EditableMLFeatureTableProperties{Description: Ptr("User features served from Redis.")}},
		{"minimal", EditableMLFeatureTableProperties{}},
		{"full", EditableMLModelProperties{Description: Ptr("Churn model, retrained weekly.")}},
		{"minimal", EditableMLModelProperties{}},
		{"full", EditableMLModelGroupProperties{Description: Ptr("Every churn model run.")}},
		{"minimal", EditableMLModelGroupProperties{}},

		{"full", *fullTags()},
		{"minimal", GlobalTags{}},
		{"full", GlossaryTerms{
			Terms:      fullTerms().Terms,
			AuditStamp: fullStamp(tT0, tAlice),
		}},
		{"minimal", GlossaryTerms{AuditStamp: AuditStamp{Time: tT0, Actor: tAlice}}},

		{"full", Ownership{
			Owners: []Owner{
				{
					Owner:       tAlice,
					Type:        OwnershipTypeTechnicalOwner,
					TypeURN:     Ptr("urn:li:ownershipType:__system__technical_owner"),
					Source:      &OwnershipSource{Type: OwnershipSourceSourceControl, URL: Ptr("https://git.example.com/data/orders/CODEOWNERS")},
					Attribution: fullAttribution(),
				},
				{Owner: "urn:li:corpGroup:data-eng", Type: OwnershipTypeBusinessOwner},
			},
			OwnerTypes: map[string][]string{
				"urn:li:ownershipType:__system__technical_owner": {tAlice},
				"urn:li:ownershipType:__system__business_owner":  {"urn:li:corpGroup:data-eng"},
			},
			LastModified: fullStamp(tT1, tBob),
		}},
		{"minimal", Ownership{}},

		{"full", DatasetProfile{
			TimestampMillis:  tT1,
			EventGranularity: &TimeWindowSize{Unit: CalendarIntervalDay, Multiple: 1},
			PartitionSpec: &PartitionSpec{
				Type:          PartitionTypePartition,
				Partition:     "ds=2023-11-14",
				TimePartition: &TimeWindow{StartTimeMillis: tT0, Length: TimeWindowSize{Unit: CalendarIntervalHour, Multiple: 24}},
			},
			MessageID:   Ptr("profile-orders-2023-11-14"),
			RowCount:    Ptr(int64(1843201)),
			ColumnCount: Ptr(int64(13)),
			FieldProfiles: []DatasetFieldProfile{
				{
					FieldPath:        "order_total",
					UniqueCount:      Ptr(int64(90211)),
					UniqueProportion: Ptr(float32(0.049)),
					NullCount:        Ptr(int64(12)),
					NullProportion:   Ptr(float32(0.0000065)),
					Min:              Ptr("0.99"),
					Max:              Ptr("12999.00"),
					Mean:             Ptr("57.31"),
					Median:           Ptr("39.90"),
					Stdev:            Ptr("88.02"),
					Quantiles:        []Quantile{{Quantile: "0.25", Value: "19.99"}, {Quantile: "0.75", Value: "74.50"}},
					DistinctValueFrequencies: []ValueFrequency{
						{Value: "19.99", Frequency: 40211},
						{Value: "9.99", Frequency: 38002},
					},
					Histogram:    &Histogram{Boundaries: []string{"0", "50", "100", "13000"}, Heights: []float32{0.61, 0.27, 0.12}},
					SampleValues: []string{"19.99", "249.00", "7.50"},
				},
				{FieldPath: "customer_email", NullCount: Ptr(int64(0))},
			},
			SizeInBytes: Ptr(int64(734003200)),
		}},
		{"minimal", DatasetProfile{TimestampMillis: tT0}},

		{"full", DatasetUsageStatistics{
			TimestampMillis:  tT0,
			EventGranularity: &TimeWindowSize{Unit: CalendarIntervalDay, Multiple: 1},
			PartitionSpec:    &PartitionSpec{Type: PartitionTypeFullTable, Partition: FullTableSnapshot},
			MessageID:        Ptr("usage-orders-2023-11-14"),
			UniqueUserCount:  Ptr(int32(2)),
			TotalSQLQueries:  Ptr(int32(17)),
			TopSQLQueries:    []string{"SELECT count(*) FROM analytics.orders", "SELECT * FROM analytics.orders LIMIT 10"},
			UserCounts: []DatasetUserUsageCounts{
				{User: tAlice, Count: 12, UserEmail: Ptr("alice@example.com")},
				{User: tBob, Count: 5},
			},
			FieldCounts: []DatasetFieldUsageCounts{{FieldPath: "order_id", Count: 17}, {FieldPath: "customer_email", Count: 3}},
		}},
		{"minimal", DatasetUsageStatistics{TimestampMillis: tT0}},

		{"full", Operation{
			TimestampMillis:      tT1,
			EventGranularity:     &TimeWindowSize{Unit: CalendarIntervalHour, Multiple: 1},
			PartitionSpec:        &PartitionSpec{Type: PartitionTypeQuery, Partition: "ds=2023-11-14"},
			MessageID:            Ptr("op-42"),
			Actor:                Ptr(tBob),
			OperationType:        OperationTypeCustom,
			CustomOperationType:  Ptr("COMPACTION"),
			NumAffectedRows:      Ptr(int64(5120)),
			AffectedDatasets:     []string{tUsers},
			SourceType:           Ptr(OperationSourceDataProcess),
			CustomProperties:     map[string]string{"job": "compact_orders", "attempt": "1"},
			LastUpdatedTimestamp: tT0,
			Queries:              []string{"urn:li:query:compact-orders-2023-11-14"},
		}},
		{"minimal", Operation{TimestampMillis: tT1, OperationType: OperationTypeInsert, LastUpdatedTimestamp: tT1}},

		{"full", TestInfo{
			Name:        "Datasets have an owner",
			Category:    "Governance",
			Description: Ptr("Every production dataset has at least one technical owner."),
			Definition:  TestDefinition{Type: TestDefinitionJSON, JSON: Ptr(`{"on":{"types":["dataset"]},"rules":{"and":[{"property":"ownership.owners.owner","operator":"exists"}]}}`)},
		}},
		{"minimal", TestInfo{Name: "t", Category: "c", Definition: TestDefinition{Type: TestDefinitionJSON}}},

		{"full", TestResults{
			Failing: []TestResult{{Test: "urn:li:test:has-description", Type: TestResultFailure, TestDefinitionMD5: Ptr("1f3870be274f6c49b3e31a0c6728957f"), LastComputed: &AuditStamp{Time: tT1, Actor: tIngestion}}},
			Passing: []TestResult{{Test: "urn:li:test:has-owner", Type: TestResultSuccess}},
		}},
		{"minimal", TestResults{}},

		{"full", DataPlatformInfo{
			Name:                 "hive",
			DisplayName:          Ptr("Apache Hive"),
			Type:                 PlatformTypeFileSystem,
			DatasetNameDelimiter: ".",
			Logical:              Ptr(false),
			LogoURL:              Ptr("https://datahubproject.io/img/logos/platforms/hive.svg"),
		}},
		{"minimal", DataPlatformInfo{Name: "x", Type: PlatformTypeOthers, DatasetNameDelimiter: "/"}},
	}
}
