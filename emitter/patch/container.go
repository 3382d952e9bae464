package patch

import "github.com/catalogkit/datahub-go/urn"

// Container builds the patches of a container (a database, schema,
// folder, or an ML experiment): its editable description, as DataHub's
// Java EditableContainerPropertiesPatchBuilder writes it, and through the
// embedded Builder tags, terms, owners, domains, structured properties,
// links and custom properties. DataHub has no patch template for
// containerProperties, so custom properties are sent with
// forceGenericPatch.
type Container struct {
	*Builder
}

// NewContainer returns a patch builder for container u.
func NewContainer(u urn.Container) *Container { return &Container{New(u)} }

// SetDescription sets editableContainerProperties.description, the
// description edited in DataHub's UI.
func (c *Container) SetDescription(description string) {
	c.Add("editableContainerProperties", "/description", description)
}

// RemoveDescription removes editableContainerProperties.description.
func (c *Container) RemoveDescription() { c.Remove("editableContainerProperties", "/description") }
