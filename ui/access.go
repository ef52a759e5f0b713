package ui

import "github.com/benchwright/benchwright/verify"

// may reports whether the signed-in user's role may take action a, by verify's
// access table: screens offer what the store would allow and nothing else.
func (u *App) may(a verify.Action) bool {
	return verify.Permitted(a, verify.Role(u.user.Role))
}
