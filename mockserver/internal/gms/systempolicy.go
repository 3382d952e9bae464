package gms

// MsgSystemPolicyDelete is SystemPolicyValidator's refusal of a DELETE of a
// system policy.
const MsgSystemPolicyDelete = "System policies can not be deleted."

// systemPolicies are the policies DataHub ships, which its
// SystemPolicyValidator refuses to delete (SYSTEM_POLICY_ZERO and _ONE).
var systemPolicies = map[string]bool{"urn:li:dataHubPolicy:0": true, "urn:li:dataHubPolicy:1": true}

// checkDeletable refuses deleting a system policy, or any aspect of one, as
// SystemPolicyValidator refuses a DELETE change item of it (Invalid).
func checkDeletable(urn string) *Error {
	if systemPolicies[urn] {
		return errorf(Invalid, MsgSystemPolicyDelete)
	}
	return nil
}
