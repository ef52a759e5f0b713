package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/demo"
)

// holdLeadLoads makes the loads wait until the test runs them (run): the screen is
// seen as it is while a slow server answers.
func holdLeadLoads(t *testing.T) (run func()) {
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	return func() {
		for len(pending) > 0 {
			f := pending[0]
			pending = pending[1:]
			f()
		}
	}
}

// TestSignInSaysItIsSigningIn: while the store answers a sign-in, the form says
// it is signing in and its button cannot be pressed again; a refusal keeps the
// name typed, and a sign-in that is let through signs in.
func TestSignInSaysItIsSigningIn(t *testing.T) {
	u, _ := demoApp(t)
	run := holdLeadLoads(t)
	f := u.signInForm
	signInAs(t, u, "lead", "wrong")
	if !f.button.Disabled() || !strings.Contains(f.message.Text, "Signing in") {
		t.Fatalf("while signing in: button disabled %v, message %q", f.button.Disabled(), f.message.Text)
	}
	run()
	if f.button.Disabled() || f.name.Text != "lead" || u.user.ID != 0 || !strings.Contains(f.message.Text, "Wrong") {
		t.Fatalf("after a refusal: button disabled %v, name %q, message %q", f.button.Disabled(), f.name.Text, f.message.Text)
	}
	signInAs(t, u, "lead", demo.DemoPassword)
	if u.user.ID != 0 {
		t.Fatal("signed in before the store answered")
	}
	run()
	if u.user.Name != "lead" {
		t.Errorf("not signed in once the store answered: %q", f.message.Text)
	}
}

// TestSettingsSaveIsDisabledWhileItRuns: Save cannot be pressed twice while the
// store saves; a refusal keeps what was typed, with the reason beside it.
func TestSettingsSaveIsDisabledWhileItRuns(t *testing.T) {
	u, _ := settingsApp(t)
	v := openSettings(t, u, "lead")
	run := holdLeadLoads(t)
	retype(v.claim, "abc")
	test.Tap(v.save)
	if !v.save.Disabled() {
		t.Fatal("Save can be pressed again while it runs")
	}
	run()
	claim := v.field("claim_minutes")
	if v.save.Disabled() || v.claim.Text != "abc" || !claim.err.Visible() {
		t.Errorf("after the refusal: Save disabled %v, claim %q, reason shown %v", v.save.Disabled(), v.claim.Text, claim.err.Visible())
	}
}
