package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// brief is a finding as "severity check sample-or-image".
func brief(f bench.AuditFinding) string {
	where := f.SampleID
	if where == "" {
		where = f.Image
	}
	return f.Severity + " " + f.Check + " " + where
}

func TestAuditFindings(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(t *testing.T, f relFixture)
		want  []string // brief findings, in report order
		text  string   // a message must contain this
	}{
		{"clean", func(t *testing.T, f relFixture) {}, nil, ""},
		{"image changed", func(t *testing.T, f relFixture) {
			writeFile(t, filepath.Join(f.images, "misc", "e.jpg"), encodeJPEG(t, 64, 48, color.White))
		}, []string{"error image-hash misc/e.jpg"}, "changed since import"},
		{"image deleted", func(t *testing.T, f relFixture) {
			os.Remove(filepath.Join(f.images, "0002-kitchen-1", "d.jpg"))
		}, []string{"error image-missing 0002-kitchen-1/d.jpg"}, "(used by hq-03)"},
		{"duplicate question", func(t *testing.T, f relFixture) {
			f.accept(t, relHop("hq-dup", "0001-office-1/b.jpg", "which object is CLOSEST to the camera"))
		}, []string{"error duplicate-question hq-01", "error duplicate-question hq-dup"}, "the same question as hq-dup on image 0001-office-1/b.jpg"},
		{"three copies of a question: every one is reported", func(t *testing.T, f relFixture) {
			f.accept(t, relHop("hq-dup", "0001-office-1/b.jpg", "which object is CLOSEST to the camera"))
			f.accept(t, relHop("hq-dup2", "0001-office-1/b.jpg", "Which object is closest to the camera ?"))
		}, []string{"error duplicate-question hq-01", "error duplicate-question hq-dup", "error duplicate-question hq-dup2"},
			"the same question as hq-01, hq-dup2 on image 0001-office-1/b.jpg"},
		{"split overlap", func(t *testing.T, f relFixture) {
			a := relHop("hq-tr", "0002-kitchen-1/c.jpg", "Which object is farthest from the camera?")
			a.Split = annotate.SplitTrain
			b := relHop("hq-te", "0002-kitchen-1/c.jpg", "Which object is left of the mug?")
			b.Split = annotate.SplitTest
			f.accept(t, a)
			f.accept(t, b)
		}, []string{"error split-overlap 0002-kitchen-1/c.jpg"}, "in train (hq-tr) and in test (hq-te)"},
		{"accepted without rounds 2 and 3", func(t *testing.T, f relFixture) {
			si := f.submit(t, relHop("hq-short", "misc/e.jpg", "Which object is farthest from the camera?"))
			f.review(t, si, 1)
			relRaw(t, f.db.Path()).Exec(`UPDATE samples SET status = 'accepted' WHERE id = 'hq-short'`)
		}, []string{"error trail hq-short", "error trail hq-short"}, "no round-2 approval on the accepted revision"},
		{"panel grew after acceptance", func(t *testing.T, f relFixture) {
			s := f.project.Settings
			s.Balance, s.Round3Panel = nil, 4
			if err := f.db.UpdateSettings(context.Background(), f.lead, f.project.ID, s); err != nil {
				t.Fatal(err)
			}
		}, []string{"error trail hq-00", "error trail hq-01", "error trail hq-02", "error trail hq-03", "error trail hq-04", "error trail yn-01"},
			"round 3 has 3 approvals, the policy needs a panel of 4"},
		{"lint error in the accepted revision", func(t *testing.T, f relFixture) {
			bad := relHop("hq-00", "0001-office-1/a.jpg", "Which object is closest to the camera?")
			bad.Options = bad.Options[:3]
			content, _ := json.Marshal(bad)
			raw := relRaw(t, f.db.Path())
			var id int64
			if err := raw.QueryRow(`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at)
				VALUES ('hq-00', 2, ?, ?, 'tamper', '2026-01-01T00:00:00Z') RETURNING id`, string(content), f.ann.ID).Scan(&id); err != nil {
				t.Fatal(err)
			}
			raw.Exec(`UPDATE samples SET current_rev = ? WHERE id = 'hq-00'`, id)
		}, []string{"error lint hq-00", "error trail hq-00", "error trail hq-00", "error trail hq-00"}, "the options: hop_qa needs exactly 4 options, has 3"}, // people's words, no rule id or path
		{"balance shortfall", func(t *testing.T, f relFixture) {
			f.setBalance(t, bench.BalanceTarget{Kind: "hop_qa", Hop: 1, View: "exo", Count: 7},
				bench.BalanceTarget{Kind: "hop_qa", Hop: 2, View: "exo", Count: 0}, // no target
				bench.BalanceTarget{Kind: "hop_qa", Hop: 1, View: "exo", Count: 5}) // met
		}, []string{"warning balance "}, "hop QA, 1-hop, exo: 5 of 7 accepted, 2 short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newRelFixture(t)
			f.setBalance(t)
			f.acceptSome(t)
			tt.setup(t, f)
			rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			found := tt.text == ""
			for _, fd := range rep.Findings {
				got = append(got, brief(fd))
				found = found || strings.Contains(fd.Message, tt.text)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s\n%+v", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), rep.Findings)
			}
			if !found {
				t.Errorf("no finding says %q: %+v", tt.text, rep.Findings)
			}
			if rep.Images != len(relImages) || rep.Samples < 6 {
				t.Errorf("audited %d samples, %d images", rep.Samples, rep.Images)
			}
		})
	}
}

func TestAuditOutputAndPermissions(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t, bench.BalanceTarget{Kind: "hop_qa", Hop: 3, View: "ego", Count: 2})
	f.acceptSome(t)
	writeFile(t, filepath.Join(f.images, "misc", "e.jpg"), []byte("not the imported bytes"))
	rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() != 1 || len(rep.Findings) != 2 {
		t.Fatalf("findings %+v", rep.Findings)
	}
	var text, js bytes.Buffer
	rep.WriteText(&text)
	rep.WriteJSON(&js)
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "error\timage-hash\tmisc/e.jpg\t") ||
		!strings.HasPrefix(lines[1], "warning\tbalance\t-\thop QA, 3-hop, ego: 0 of 2") || lines[2] != "6 accepted samples, 5 images: 1 errors, 1 warnings" {
		t.Errorf("text report:\n%s", text.String())
	}
	jl := strings.Split(strings.TrimSpace(js.String()), "\n")
	var first bench.AuditFinding
	if len(jl) != 2 || json.Unmarshal([]byte(jl[0]), &first) != nil || !reflect.DeepEqual(first, rep.Findings[0]) {
		t.Errorf("JSON report:\n%s", js.String())
	}

	for _, u := range []bench.User{f.ann, f.ver} {
		if _, err := f.db.Audit(ctx, u, f.project.ID); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("%s audits: %v", u.Name, err)
		}
	}
	if n := auditCount(t, f.db.Path(), "denied:audit"); n != 2 {
		t.Errorf("refused audits logged %d times, want 2", n)
	}
	// A project that does not exist is refused as another project is (not a member): the answer tells a stranger nothing.
	if _, err := f.db.Audit(ctx, f.lead, 99); !errors.Is(err, verify.ErrNotMember) {
		t.Errorf("audit of a missing project: %v", err)
	}
}

// TestWithdrawDuplicates: the audit gives every member of a duplicate group its
// finding with the whole group, and "keep one, withdraw the rest" withdraws the
// others in one go (each audited with the reason and the sample kept), so the next
// audit is clean after one round instead of one per copy (issue 27 item 12). Only a
// lead may, with a reason, and only on a sample that has duplicates.
func TestWithdrawDuplicates(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) relFixture {
		f := newRelFixture(t)
		f.setBalance(t)
		f.acceptSome(t) // hq-01 asks "Which object is closest to the camera?" about 0001-office-1/b.jpg
		f.accept(t, relHop("hq-dup", "0001-office-1/b.jpg", "which object is CLOSEST to the camera"))
		f.accept(t, relHop("hq-dup2", "0001-office-1/b.jpg", "Which object is closest to the camera ?"))
		return f
	}
	group := []string{"hq-01", "hq-dup", "hq-dup2"}

	f := setup(t)
	rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	for _, fd := range rep.Findings {
		if fd.Check == bench.CheckDuplicate {
			members = append(members, fd.SampleID)
			if !slices.Equal(fd.Group, group) {
				t.Errorf("%s's finding names the group %q, want %q", fd.SampleID, fd.Group, group)
			}
		}
	}
	if !slices.Equal(members, group) {
		t.Fatalf("duplicate findings for %q, want one for each of %q", members, group)
	}
	res, err := f.db.WithdrawDuplicates(ctx, f.lead, f.project.ID, "hq-dup", "  one copy is enough ")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Done, []string{"hq-01", "hq-dup2"}) || len(res.Refused) > 0 {
		t.Fatalf("withdrew %q, refused %v", res.Done, res.Refused)
	}
	for id, want := range map[string]verify.State{"hq-01": verify.StateWithdrawn, "hq-dup2": verify.StateWithdrawn, "hq-dup": verify.StateAccepted} {
		if s, _ := f.db.Sample(ctx, bench.Owner(), id); s.Status != want {
			t.Errorf("%s is %s, want %s", id, s.Status, want)
		}
	}
	raw := relRaw(t, f.db.Path())
	var details []string
	rows, err := raw.Query(`SELECT entity_id || ': ' || detail FROM audit_log WHERE action = 'sample.withdraw' ORDER BY entity_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d string
		rows.Scan(&d)
		details = append(details, d)
	}
	rows.Close()
	if want := []string{"hq-01: one copy is enough (the same question as hq-dup, which is kept)",
		"hq-dup2: one copy is enough (the same question as hq-dup, which is kept)"}; !slices.Equal(details, want) {
		t.Errorf("audited withdrawals %q, want %q", details, want)
	}
	if rep, err = f.db.Audit(ctx, f.lead, f.project.ID); err != nil || rep.Errors() != 0 {
		t.Errorf("the audit after keeping one: %v %+v", err, rep.Findings)
	}

	refusals := []struct {
		name   string
		as     func(f relFixture) bench.User
		keep   string
		reason string
		want   error
	}{
		{"an annotator", func(f relFixture) bench.User { return f.ann }, "hq-dup", "dup", bench.ErrForbidden},
		{"a verifier", func(f relFixture) bench.User { return f.ver }, "hq-dup", "dup", bench.ErrForbidden},
		{"no reason", func(f relFixture) bench.User { return f.lead }, "hq-dup", "  ", bench.ErrInvalid},
		{"a sample without duplicates", func(f relFixture) bench.User { return f.lead }, "hq-00", "dup", bench.ErrInvalid},
		{"a sample that does not exist", func(f relFixture) bench.User { return f.lead }, "hq-99", "dup", bench.ErrInvalid},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t)
			before := dbRows(t, f.db)
			if _, err := f.db.WithdrawDuplicates(ctx, tt.as(f), f.project.ID, tt.keep, tt.reason); !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if dbRows(t, f.db) != before {
				t.Error("a refused WithdrawDuplicates changed the project")
			}
		})
	}
}
