package ui

import "github.com/benchwright/benchwright/verify"

// may reports whether the signed-in user's role may take action a, by verify's
// access table: screens offer what the store would allow and nothing else.
func (u *App) may(a verify.Action) bool {
	return verify.Permitted(a, verify.Role(u.user.Role))
}

// offers reports whether the app puts action a in front of the signed-in user's
// role (verify.Offered): what the role may do and is its work. Navigation and
// buttons follow it; a role's refusals stay the store's.
func (u *App) offers(a verify.Action) bool {
	return verify.Offered(a, verify.Role(u.user.Role))
}
