package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
)

var updateFreezeExport = flag.Bool("update-freeze-export", false, "rewrite testdata/freeze_export/ from the store's Freeze, Audit and Export")

// TestFreezeExportGolden freezes a generated project (audited first) and exports
// the release in every format, and compares the audit's findings and every file
// of every export, byte for byte (MANIFEST.json's created line aside), with the
// golden written by the freeze and export before they were made faster (issue 31
// item 3): a faster freeze or export must not change one byte of a release. The
// golden is one for both engines.
func TestFreezeExportGolden(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	images := filepath.Join(t.TempDir(), "images")
	res, err := synth.Generate(ctx, db, synth.Options{Project: "golden", Password: "golden-password", Samples: 600, Images: 60,
		Large: -1, Seed: 7, ImageDir: images})
	if err != nil {
		t.Fatal(err)
	}
	lead, err := db.Authenticate(ctx, "lead", "golden-password")
	if err != nil {
		t.Fatal(err)
	}
	p := res.Project
	if err := synth.WithdrawAuditErrors(ctx, db, lead, p.ID); err != nil {
		t.Fatal(err)
	}
	frozen := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return frozen }

	var golden bytes.Buffer
	rep, err := db.Audit(ctx, lead, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	fmt.Fprintf(&golden, "audit\n%s\n", b)
	// On PostgreSQL the audit reads the reviews and the selection beside the
	// samples, on a connection of its own; on the one connection, the same.
	store.SetReadBeside(t, false)
	one, err := db.Audit(ctx, lead, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	store.SetReadBeside(t, true)
	if b1, _ := json.MarshalIndent(one, "", "  "); !bytes.Equal(b1, b) {
		t.Errorf("the audit read on one connection differs from the audit read beside:\n%s\n%s", b1, b)
	}

	// Without a split the generator's own splits overlap on images: the audit
	// refuses the freeze, listing its errors.
	if _, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "golden", Version: "own-splits"}); err != nil {
		fmt.Fprintf(&golden, "refused: %v\n", err)
	}
	for _, in := range []bench.FreezeInput{
		{ProjectID: p.ID, Name: "golden", Version: "split", Split: freezeSplit},
		{ProjectID: p.ID, Name: "golden", Version: "hop", Kinds: []annotate.Kind{annotate.KindHopQA}, Split: freezeSplit},
	} {
		rel, err := db.Freeze(ctx, lead, in)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&golden, "release %s: %d samples, splits %v\n", rel.Ref(), rel.Samples, rel.SplitCounts)
		for _, format := range release.Formats() {
			out := filepath.Join(t.TempDir(), format.Name())
			if _, err := db.Export(ctx, lead, bench.ExportInput{Release: rel.Ref(), ProjectID: p.ID, Format: format.Name(), OutDir: out}, nil); err != nil {
				fmt.Fprintf(&golden, "%s: %s\n", format.Name(), bench.Message(err))
				continue
			}
			files := readTree(t, out)
			names := make([]string, 0, len(files))
			for name := range files {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				data := files[name]
				if name == release.ManifestName {
					data = dropManifestCreated(t, data)
				}
				fmt.Fprintf(&golden, "%s %x %d %s\n", format.Name(), sha256.Sum256(data), len(data), name)
			}
		}
	}

	path := filepath.Join("testdata", "freeze_export.golden")
	if *updateFreezeExport {
		if err := os.WriteFile(path, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-freeze-export to write it)", err)
	}
	if got := golden.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		n := 0
		for i := 0; i < max(len(gl), len(wl)) && n < 20; i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
				n++
			}
		}
	}
}

// dropManifestCreated removes MANIFEST.json's created line, the one line a new
// export of the same release may change.
func dropManifestCreated(t *testing.T, m []byte) []byte {
	t.Helper()
	var keep []string
	dropped := 0
	for _, l := range strings.Split(string(m), "\n") {
		if strings.HasPrefix(l, `  "created": `) {
			dropped++
			continue
		}
		keep = append(keep, l)
	}
	if dropped != 1 {
		t.Fatalf("MANIFEST.json has %d created lines, want 1", dropped)
	}
	return []byte(strings.Join(keep, "\n"))
}
