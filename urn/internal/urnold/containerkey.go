package urnold

// The keys below name containers, notebooks and data process instances as
// DataHub's connectors name them, so that a Go job and a Python connector
// reading the same source make the same URNs. Each key's GUID is
// GUID(Fields()); Fields holds the members DataHub's key class holds under
// their DataHub names, an empty optional member left out.
//
// A container key's Env is not part of its GUID (DataHub keeps it only as a
// property of the container), except through BackcompatEnvAsInstance: some
// DataHub connectors used the env as the platform instance when none was
// set, and set this to keep those GUIDs.

// ContainerKey is the part every container key shares: the platform (as
// the connector names it, such as "mysql"), the platform instance and the
// env.
type ContainerKey struct {
	Platform string
	Instance string
	Env      string
	// BackcompatEnvAsInstance puts Env in the GUID as the instance when
	// Instance is empty (DataHub's backcompat_env_as_instance).
	BackcompatEnvAsInstance bool
}

// Fields returns the members of k that go into a GUID.
func (k ContainerKey) Fields() map[string]any {
	m := map[string]any{"platform": k.Platform}
	switch {
	case k.Instance != "":
		m["instance"] = k.Instance
	case k.BackcompatEnvAsInstance && k.Env != "":
		m["instance"] = k.Env
	}
	return m
}

// containerURN returns the container URN of fields.
func containerURN(fields map[string]any) (Container, error) {
	g, err := GUID(fields)
	if err != nil {
		return Container{}, err
	}
	return NewContainer(g)
}

// with returns k's fields plus kv (name, value pairs).
func (k ContainerKey) with(kv ...string) map[string]any {
	m := k.Fields()
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// DatabaseKey is the key of a database container (DataHub's DatabaseKey).
type DatabaseKey struct {
	ContainerKey
	Database string
}

// Fields returns the members of k that go into its GUID.
func (k DatabaseKey) Fields() map[string]any { return k.with("database", k.Database) }

// URN returns the container URN of k.
func (k DatabaseKey) URN() (Container, error) { return containerURN(k.Fields()) }

// SchemaKey is the key of a schema container (DataHub's SchemaKey), whose
// parent is the database container.
type SchemaKey struct {
	ContainerKey
	Database string
	Schema   string
}

// Fields returns the members of k that go into its GUID.
func (k SchemaKey) Fields() map[string]any {
	return k.with("database", k.Database, "schema", k.Schema)
}

// URN returns the container URN of k.
func (k SchemaKey) URN() (Container, error) { return containerURN(k.Fields()) }

// Parent returns the key of the database that holds the schema.
func (k SchemaKey) Parent() DatabaseKey {
	return DatabaseKey{ContainerKey: k.ContainerKey, Database: k.Database}
}

// ProjectKey is the key of a project container (DataHub's ProjectIdKey:
// a BigQuery or Vertex AI project).
type ProjectKey struct {
	ContainerKey
	ProjectID string
}

// Fields returns the members of k that go into its GUID.
func (k ProjectKey) Fields() map[string]any { return k.with("project_id", k.ProjectID) }

// URN returns the container URN of k.
func (k ProjectKey) URN() (Container, error) { return containerURN(k.Fields()) }

// BigQueryDatasetKey is the key of a BigQuery dataset container, whose
// parent is the project container.
type BigQueryDatasetKey struct {
	ContainerKey
	ProjectID string
	DatasetID string
}

// Fields returns the members of k that go into its GUID.
func (k BigQueryDatasetKey) Fields() map[string]any {
	return k.with("project_id", k.ProjectID, "dataset_id", k.DatasetID)
}

// URN returns the container URN of k.
func (k BigQueryDatasetKey) URN() (Container, error) { return containerURN(k.Fields()) }

// Parent returns the key of the project that holds the dataset.
func (k BigQueryDatasetKey) Parent() ProjectKey {
	return ProjectKey{ContainerKey: k.ContainerKey, ProjectID: k.ProjectID}
}

// CatalogKey is the key of a catalog container (DataHub's CatalogKey,
// Unity Catalog without a metastore).
type CatalogKey struct {
	ContainerKey
	Catalog string
}

// Fields returns the members of k that go into its GUID.
func (k CatalogKey) Fields() map[string]any { return k.with("catalog", k.Catalog) }

// URN returns the container URN of k.
func (k CatalogKey) URN() (Container, error) { return containerURN(k.Fields()) }

// UnitySchemaKey is the key of a Unity Catalog schema container, whose
// parent is the catalog container.
type UnitySchemaKey struct {
	ContainerKey
	Catalog     string
	UnitySchema string
}

// Fields returns the members of k that go into its GUID.
func (k UnitySchemaKey) Fields() map[string]any {
	return k.with("catalog", k.Catalog, "unity_schema", k.UnitySchema)
}

// URN returns the container URN of k.
func (k UnitySchemaKey) URN() (Container, error) { return containerURN(k.Fields()) }

// Parent returns the key of the catalog that holds the schema.
func (k UnitySchemaKey) Parent() CatalogKey {
	return CatalogKey{ContainerKey: k.ContainerKey, Catalog: k.Catalog}
}

// MetastoreKey is the key of a Unity Catalog metastore container.
type MetastoreKey struct {
	ContainerKey
	Metastore string
}

// Fields returns the members of k that go into its GUID.
func (k MetastoreKey) Fields() map[string]any { return k.with("metastore", k.Metastore) }

// URN returns the container URN of k.
func (k MetastoreKey) URN() (Container, error) { return containerURN(k.Fields()) }

// NamespaceKey is the key of an Iceberg namespace container.
type NamespaceKey struct {
	ContainerKey
	Namespace string
}

// Fields returns the members of k that go into its GUID.
func (k NamespaceKey) Fields() map[string]any { return k.with("namespace", k.Namespace) }

// URN returns the container URN of k.
func (k NamespaceKey) URN() (Container, error) { return containerURN(k.Fields()) }

// ExperimentKey is the key of an experiment container (MLflow, Vertex AI).
type ExperimentKey struct {
	ContainerKey
	ID string
}

// Fields returns the members of k that go into its GUID.
func (k ExperimentKey) Fields() map[string]any { return k.with("id", k.ID) }

// URN returns the container URN of k.
func (k ExperimentKey) URN() (Container, error) { return containerURN(k.Fields()) }

// BucketKey is the key of an object store bucket container (S3, GCS,
// ABS).
type BucketKey struct {
	ContainerKey
	BucketName string
}

// Fields returns the members of k that go into its GUID.
func (k BucketKey) Fields() map[string]any { return k.with("bucket_name", k.BucketName) }

// URN returns the container URN of k.
func (k BucketKey) URN() (Container, error) { return containerURN(k.Fields()) }

// FolderKey is the key of a folder container of an object store or file
// system, by its absolute path.
type FolderKey struct {
	ContainerKey
	FolderAbsPath string
}

// Fields returns the members of k that go into its GUID.
func (k FolderKey) Fields() map[string]any {
	return k.with("folder_abs_path", k.FolderAbsPath)
}

// URN returns the container URN of k.
func (k FolderKey) URN() (Container, error) { return containerURN(k.Fields()) }

// NotebookKey is the key of a notebook (DataHub's NotebookKey), which
// DataHub stores as a dataset named by the key's GUID.
type NotebookKey struct {
	NotebookID int64
	Platform   string
	Instance   string
}

// Fields returns the members of k that go into its GUID.
func (k NotebookKey) Fields() map[string]any {
	m := map[string]any{"notebook_id": k.NotebookID, "platform": k.Platform}
	if k.Instance != "" {
		m["instance"] = k.Instance
	}
	return m
}

// URN returns the dataset URN of the notebook: its GUID as the name
// (prefixed with the platform instance and a dot when there is one), env
// PROD.
func (k NotebookKey) URN() (Dataset, error) {
	g, err := GUID(k.Fields())
	if err != nil {
		return Dataset{}, err
	}
	if k.Instance != "" {
		g = k.Instance + "." + g
	}
	return NewDataset(k.Platform, g, "PROD")
}

// DataProcessInstanceKey is the key of a run of a job or flow (DataHub's
// DataProcessInstanceKey): the orchestrator (such as "airflow"), the
// cluster or env (optional) and the run's id.
type DataProcessInstanceKey struct {
	Orchestrator string
	Cluster      string
	ID           string
}

// Fields returns the members of k that go into its GUID.
func (k DataProcessInstanceKey) Fields() map[string]any {
	m := map[string]any{"orchestrator": k.Orchestrator, "id": k.ID}
	if k.Cluster != "" {
		m["cluster"] = k.Cluster
	}
	return m
}

// URN returns the dataProcessInstance URN of k.
func (k DataProcessInstanceKey) URN() (DataProcessInstance, error) {
	g, err := GUID(k.Fields())
	if err != nil {
		return DataProcessInstance{}, err
	}
	return NewDataProcessInstance(g)
}
