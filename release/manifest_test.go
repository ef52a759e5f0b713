package release

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// exportDir exports the fixture in format f into a fresh folder.
func exportDir(t *testing.T, f Format) (string, Manifest) {
	t.Helper()
	recs, images := releaseFixture()
	dir := t.TempDir()
	m, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: f, Records: recs, Open: opener(images), Info: fixtureInfo(fixedTime)})
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func TestVerifyRelease(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		want   []string // the diff, one line per file
	}{
		{"untouched", func(*testing.T, string) {}, nil},
		{"one byte flipped in an image", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "images", "misc", "c.png")
			b, _ := os.ReadFile(p)
			b[10] ^= 1
			os.WriteFile(p, b, 0o644)
		}, []string{"changed images/misc/c.png: sha256 "}},
		{"a line appended", func(t *testing.T, dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "samples.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("{}\n")
			f.Close()
		}, []string{"changed samples.jsonl: 1848 bytes, the manifest says 1845"}},
		{"added, missing", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "images", "0002-kitchen-1", "b.jpg"))
			os.WriteFile(filepath.Join(dir, "images", "extra.jpg"), []byte("x"), 0o644)
		}, []string{"missing images/0002-kitchen-1/b.jpg", "added images/extra.jpg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, m := exportDir(t, native{})
			tt.tamper(t, dir)
			d, err := VerifyRelease(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if d.OK() != (len(tt.want) == 0) || len(d.Files) != len(tt.want) {
				t.Fatalf("diff %v, want %q", d.Files, tt.want)
			}
			for i, w := range tt.want {
				if got := d.Files[i].String(); !strings.HasPrefix(got, w) {
					t.Errorf("diff line %d: %q, want %q…", i, got, w)
				}
			}
			if want := len(m.Files) - len(tt.want); tt.name != "added, missing" && d.Matched != want {
				t.Errorf("%d files matched, want %d", d.Matched, want)
			}
		})
	}
}

func TestVerifyReleaseNeedsAManifest(t *testing.T) {
	dir, _ := exportDir(t, coco{})
	os.Remove(filepath.Join(dir, ManifestName))
	if _, err := VerifyRelease(context.Background(), dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no manifest: got %v", err)
	}
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"files": [{"path": "../../etc/passwd"}]}`), 0o644)
	if _, err := VerifyRelease(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "files[0]") {
		t.Errorf("a manifest naming a file outside the folder: got %v", err)
	}
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"files": [`), 0o644)
	if _, err := VerifyRelease(context.Background(), dir); err == nil || !strings.Contains(err.Error(), ManifestName) {
		t.Errorf("a truncated manifest: got %v", err)
	}
}

func TestReadManifestRoundTrip(t *testing.T) {
	dir, m := exportDir(t, hfImageFolder{})
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(got) != mustJSON(m) {
		t.Errorf("read back %s\nwrote %s", mustJSON(got), mustJSON(m))
	}
	if got.Counts.Split["train"] != 5 || got.Counts.Split["test"] != 2 || got.Counts.Hop["3"] != 1 || got.Counts.View["ego"] != 1 {
		t.Errorf("counts %+v", got.Counts)
	}
}

func ExampleVerifyRelease() {
	dir, err := os.MkdirTemp("", "release")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	recs, images := releaseFixture()
	if _, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: coco{}, Records: recs, Open: opener(images)}); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := VerifyRelease(context.Background(), dir)
	fmt.Println(d.OK(), d.Matched)

	// One byte changes in an image.
	p := filepath.Join(dir, "images", "misc", "c.png")
	b, _ := os.ReadFile(p)
	b[0] ^= 1
	os.WriteFile(p, b, 0o644)
	d, _ = VerifyRelease(context.Background(), dir)
	for _, f := range d.Files {
		fmt.Println(f.Change, f.Path)
	}
	// Output:
	// true 5
	// changed images/misc/c.png
}

// A release is regular files inside its folder: links, pipes and the like are
// findings and are never opened (a link to /dev/zero or a FIFO used to hang the
// check; a link to a file outside passed for a release file).
func TestVerifyReleaseRefusesWhatIsNotAFile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.jpg")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tamper  func(dir string) error
		want    string
		matched int // files that still match, counted from the manifest's: -1 one fewer
	}{
		{"image replaced by a link to /dev/zero", func(dir string) error {
			p := filepath.Join(dir, "images", "misc", "c.png")
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink("/dev/zero", p)
		}, "not a regular file images/misc/c.png: a symbolic link", -1},
		{"image replaced by a link to an identical file outside", func(dir string) error {
			p := filepath.Join(dir, "images", "misc", "c.png")
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(outside, b, 0o644); err != nil {
				return err
			}
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink(outside, p)
		}, "not a regular file images/misc/c.png: a symbolic link", -1},
		{"a named pipe added", func(dir string) error {
			return syscall.Mkfifo(filepath.Join(dir, "images", "pipe"), 0o644)
		}, "not a regular file images/pipe: a named pipe", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, m := exportDir(t, native{})
			if err := tt.tamper(dir); err != nil {
				t.Fatal(err)
			}
			d, err := VerifyRelease(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if d.OK() || len(d.Files) != 1 || d.Files[0].String() != tt.want {
				t.Errorf("diff %v, want [%s]", d.Files, tt.want)
			}
			if want := len(m.Files) + tt.matched; d.Matched != want {
				t.Errorf("%d files matched, want %d", d.Matched, want)
			}
		})
	}
	// A manifest that is a link is no manifest.
	dir, _ := exportDir(t, native{})
	p := filepath.Join(dir, ManifestName)
	b, _ := os.ReadFile(p)
	os.WriteFile(outside, b, 0o644)
	os.Remove(p)
	os.Symlink(outside, p)
	if _, err := VerifyRelease(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "it is a symbolic link, not a regular file") {
		t.Errorf("a linked manifest: %v", err)
	}
}

// Ctrl-C (a cancelled context) stops the check instead of hashing every file.
func TestVerifyReleaseStopsWhenCancelled(t *testing.T) {
	dir, _ := exportDir(t, native{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyRelease(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Fatalf("VerifyRelease with a cancelled context: %v, want context.Canceled", err)
	}
}
