package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const formInfo = "formInfo"

// Form builds the patches of a form (the formInfo aspect), as DataHub's
// Python FormPatchBuilder does: name, description, type, prompts keyed by
// id, and the users and groups it is assigned to; the embedded Builder
// gives owners.
type Form struct {
	*Builder
}

// NewForm returns a patch builder for form u.
func NewForm(u urn.Form) *Form { return &Form{New(u)} }

// SetName sets formInfo.name.
func (f *Form) SetName(name string) { f.Add(formInfo, "/name", name) }

// SetDescription sets formInfo.description.
func (f *Form) SetDescription(description string) { f.Add(formInfo, "/description", description) }

// SetType sets formInfo.type.
func (f *Form) SetType(typ aspects.FormType) { f.Add(formInfo, "/type", typ) }

// AddPrompt adds a prompt, or replaces the one with its id: add
// /prompts/<id>.
func (f *Form) AddPrompt(p aspects.FormPrompt) { f.Add(formInfo, Path("prompts", p.ID), p) }

// RemovePrompt removes the prompt with id (sent with the id as value, as
// Python sends it).
func (f *Form) RemovePrompt(id string) { f.op(formInfo, OpRemove, Path("prompts", id), id) }

// SetOwnershipForm sets actors.owners: whether the form is assigned to
// the owners of the entities it applies to.
func (f *Form) SetOwnershipForm(owners bool) { f.Add(formInfo, "/actors/owners", owners) }

// AddAssignedUser assigns the form to a user: add /actors/users/<urn>.
func (f *Form) AddAssignedUser(user string) {
	f.Add(formInfo, Path("actors", "users", user), user)
}

// RemoveAssignedUser removes a user's assignment.
func (f *Form) RemoveAssignedUser(user string) {
	f.op(formInfo, OpRemove, Path("actors", "users", user), user)
}

// AddAssignedGroup assigns the form to a group: add /actors/groups/<urn>.
func (f *Form) AddAssignedGroup(group string) {
	f.Add(formInfo, Path("actors", "groups", group), group)
}

// RemoveAssignedGroup removes a group's assignment.
func (f *Form) RemoveAssignedGroup(group string) {
	f.op(formInfo, OpRemove, Path("actors", "groups", group), group)
}
