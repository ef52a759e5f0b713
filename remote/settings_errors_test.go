package remote_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// TestSettingsErrorCrossesTheWire: a refused settings change reaches a client of
// a team server as the same typed error the file gives (bench.SettingsError, one
// {key, message} per value refused), so the Settings screen places each reason
// beside its field on a server as on a file; errors.Is still holds.
func TestSettingsErrorCrossesTheWire(t *testing.T) {
	ctx := context.Background()
	values := map[string]string{"claim_minutes": "abc", "round3_panel": "0", "group.nobody": "A"}
	p := storetest.Seed(t, func(t *testing.T, db *store.DB) bench.Service {
		_, dial := serve(t, db)
		return dial(t)
	})
	lead, err := p.DB.UserByName(ctx, bench.Owner(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	_, fileErr := p.DB.SetSettings(ctx, lead, p.Project.ID, values)
	var want *bench.SettingsError
	if !errors.As(fileErr, &want) || len(want.Fields) != 3 {
		t.Fatalf("the file's refusal: %v", fileErr)
	}

	svc, user := p.As(t, "lead")
	if _, ok := svc.(*remote.Client); !ok {
		t.Fatalf("connected to a %T, not a team server", svc)
	}
	_, err = svc.As(user).SetSettings(ctx, p.Project.ID, values)
	var got *bench.SettingsError
	if !errors.As(err, &got) {
		t.Fatalf("through the server: %v (%T), no *store.SettingsError", err, err)
	}
	if !slices.EqualFunc(got.Fields, want.Fields, func(a, b bench.FieldError) bool { return a.Key == b.Key && a.Message == b.Message }) {
		t.Errorf("fields through the server %+v, on the file %+v", got.Fields, want.Fields)
	}
	if !errors.Is(err, bench.ErrInvalid) || !errors.Is(err, verify.ErrInvalidPolicy) {
		t.Errorf("errors.Is through the server: ErrInvalid %v, ErrInvalidPolicy %v", errors.Is(err, bench.ErrInvalid), errors.Is(err, verify.ErrInvalidPolicy))
	}
	if msg := bench.Message(err); msg != bench.Message(fileErr) {
		t.Errorf("the sentence through the server %q, on the file %q", msg, bench.Message(fileErr))
	}
	// Other refusals carry no fields: an annotator may not change settings.
	ann, annUser := p.As(t, "ann1")
	_, err = ann.As(annUser).SetSettings(ctx, p.Project.ID, values)
	if errors.As(err, &got) || !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator's refusal: %v", err)
	}
}
