package release

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/shortcut"
)

// ManifestName is the file every export writes last, at its root.
const ManifestName = "MANIFEST.json"

// ReleaseInfo describes a frozen release.
type ReleaseInfo struct {
	Project  string              `json:"project"`
	Name     string              `json:"name"`
	Version  string              `json:"version"`
	FrozenAt string              `json:"frozen_at"`
	FrozenBy string              `json:"frozen_by"`
	Kinds    []annotate.Kind     `json:"kinds,omitempty"` // the kinds filter; empty = every kind
	Tasks    []string            `json:"tasks,omitempty"` // the tasks filter; empty = every task
	Split    *annotate.SplitSpec `json:"split,omitempty"` // the split the release was frozen with, if any
	Samples  int                 `json:"samples"`         // samples in the release (an export may hold fewer)

	// Curation says how the release was curated from another (a hard subset), if it was.
	Curation *Curation `json:"curation,omitempty"`
}

// AgreementSummary sums up the verification of a release's samples: the reviews of
// every revision of the released samples, and Krippendorff's alpha (nominal) of the
// decisions where a revision had more than one verifier in a round (round 3). Alpha
// is absent, with the reason in AlphaNote, when it is undefined — for instance when
// every such decision agrees.
type AgreementSummary struct {
	Reviews         int                    `json:"reviews"`
	ByRound         map[string]ReviewCount `json:"by_round"`
	Round3Unanimous int                    `json:"round3_unanimous"` // released revisions whose panel approved unanimously
	Alpha           *float64               `json:"alpha,omitempty"`
	AlphaUnits      int                    `json:"alpha_units"` // pairable units: (revision, round) with 2+ decisions
	AlphaNote       string                 `json:"alpha_note,omitempty"`
}

// ReviewCount counts decisions.
type ReviewCount struct {
	Approve int `json:"approve"`
	Reject  int `json:"reject"`
}

// ExportInfo is what an export's manifest says beyond its files.
type ExportInfo struct {
	Release    ReleaseInfo
	Created    time.Time // when the export was written: the one field that differs between two exports
	Creator    string    // who exported
	AppVersion string
	Agreement  *AgreementSummary // nil when not available
	// Validation is the policy of each generated batch some samples were accepted
	// by sampling from; nil when none were.
	Validation []SampledValidation
}

// Counts are the samples of an export by kind, hop, view and split. Hop and view
// count hop-QA samples; samples without a split count as "none".
type Counts struct {
	Samples int            `json:"samples"`
	Kind    map[string]int `json:"kind"`
	Hop     map[string]int `json:"hop"`
	View    map[string]int `json:"view"`
	Split   map[string]int `json:"split"`
	// BySampling counts the samples accepted by sampling (Manifest.Validation).
	BySampling int `json:"accepted_by_sampling,omitempty"`
}

// FileEntry is one exported file: its path from the export's root, size and SHA-256.
type FileEntry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest is MANIFEST.json.
type Manifest struct {
	Release    ReleaseInfo       `json:"release"`
	Format     string            `json:"format"` // the format's Name
	Layout     string            `json:"layout"`
	Created    string            `json:"created"`
	Creator    string            `json:"creator"`
	AppVersion string            `json:"app_version"`
	Counts     Counts            `json:"counts"`
	Skipped    map[string]int    `json:"skipped,omitempty"` // samples per kind the format cannot hold; "KIND, several images" (SkippedSequence) counts those left out only for showing several images
	Agreement  *AgreementSummary `json:"agreement,omitempty"`
	Files      []FileEntry       `json:"files"`

	// Validation is the policy of each generated batch some of the samples were
	// accepted by sampling from (Counts.BySampling of them), absent when none were.
	Validation []SampledValidation `json:"sampled_validation,omitempty"`

	// Shortcuts is what the shortcut audit's model-free checks found on the
	// exported samples, absent when no task had enough samples to judge.
	Shortcuts *ShortcutSummary `json:"shortcuts,omitempty"`
}

// ShortcutSummary is the shortcut audit's answer-letter balance and option-length
// checks (shortcut.Balance: no model, the same figures bwctl shortcuts prints)
// on a release's exported samples, so that a paper's reader sees whether a model
// could score by letter or length alone. The text-only model's figures are
// bwctl shortcuts' (seconds on a large release, too slow for every export).
type ShortcutSummary struct {
	// Judged are the checks made, one per check and task with enough samples.
	Judged int `json:"judged"`
	// Findings are those of them that found a shortcut; [] when none did.
	Findings []ShortcutFinding `json:"findings"`
}

// ShortcutFinding is one check's finding on one task.
type ShortcutFinding struct {
	Check   string  `json:"check"`   // answer-position or option-length
	Task    string  `json:"task"`    // the samples' task, else their kind
	Figure  float64 `json:"figure"`  // the share found
	Chance  float64 `json:"chance"`  // what chance gives
	Samples int     `json:"samples"` // the samples judged
	Detail  string  `json:"detail"`  // in words
}

// shortcutSummary runs shortcut.Balance on recs' samples.
func shortcutSummary(recs []Record) *ShortcutSummary {
	samples := make([]annotate.Sample, len(recs))
	for i, r := range recs {
		samples[i] = r.Sample
	}
	results := shortcut.Balance(samples, shortcut.Options{})
	if len(results) == 0 {
		return nil
	}
	out := &ShortcutSummary{Judged: len(results), Findings: []ShortcutFinding{}}
	for _, r := range results {
		if r.Finding {
			out.Findings = append(out.Findings, ShortcutFinding{Check: r.Check, Task: r.Task, Figure: r.Figure, Chance: r.Chance, Samples: r.N, Detail: r.Detail})
		}
	}
	return out
}

func newManifest(f Format, info ExportInfo, recs []Record, files []FileEntry) Manifest {
	c := Counts{Samples: len(recs), Kind: map[string]int{}, Hop: map[string]int{}, View: map[string]int{}, Split: map[string]int{}}
	for _, r := range recs {
		s := r.Sample
		c.Kind[string(s.Kind)]++
		if s.Kind == annotate.KindHopQA {
			c.Hop[strconv.Itoa(s.Hop)]++
			c.View[string(s.View)]++
		}
		sp := s.Split
		if sp == "" {
			sp = "none"
		}
		c.Split[sp]++
		if r.BySampling {
			c.BySampling++
		}
	}
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b FileEntry) int { return cmp.Compare(a.Path, b.Path) })
	created := ""
	if !info.Created.IsZero() {
		created = info.Created.UTC().Format(time.RFC3339)
	}
	return Manifest{Release: info.Release, Format: f.Name(), Layout: f.Layout(), Created: created, Creator: info.Creator,
		AppVersion: info.AppVersion, Counts: c, Agreement: info.Agreement, Validation: info.Validation, Files: files,
		Shortcuts: shortcutSummary(recs)}
}

// Encode writes m as indented JSON.
func (m Manifest) Encode(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	return e.Encode(m)
}

func writeManifest(sink Sink, m Manifest) error {
	f, err := sink.Create(ManifestName)
	if err != nil {
		return err
	}
	if err := m.Encode(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", ManifestName, err)
	}
	return f.Close()
}

// MaxManifestBytes is the largest MANIFEST.json read: a release of 100,000 samples
// and images lists about 30 MB of files.
const MaxManifestBytes = 256 << 20

// ReadManifest reads dir's MANIFEST.json, which must be a regular file.
func ReadManifest(dir string) (Manifest, error) {
	p := filepath.Join(dir, ManifestName)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return Manifest{}, fmt.Errorf("read manifest %s: it is %s, not a regular file", p, annotate.FileKind(fi.Mode()))
	}
	f, err := os.Open(p)
	if err != nil {
		return Manifest{}, fmt.Errorf("read manifest: %w", err)
	}
	defer f.Close()
	m, err := DecodeManifest(f)
	if err != nil {
		return m, fmt.Errorf("read manifest %s: %w", p, err)
	}
	return m, nil
}

// DecodeManifest reads a MANIFEST.json from r: at most MaxManifestBytes of one JSON
// object, with every listed file a relative path inside the release.
func DecodeManifest(r io.Reader) (Manifest, error) {
	var m Manifest
	b, err := io.ReadAll(io.LimitReader(r, MaxManifestBytes+1))
	if err != nil {
		return m, err
	}
	if len(b) > MaxManifestBytes {
		return m, fmt.Errorf("it is larger than %d MiB, the most a manifest may take", MaxManifestBytes>>20)
	}
	if path, off, bad := annotate.InvalidUTF8(b); bad {
		return m, fmt.Errorf("%s: byte %d is not UTF-8", cmp.Or(path, "the manifest"), off+1)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&m); err != nil {
		return m, err
	}
	for i, f := range m.Files {
		if err := checkName(f.Path); err != nil {
			return m, fmt.Errorf("files[%d]: %w", i, err)
		}
	}
	return m, nil
}

// FileDiff is one file that differs from the manifest.
type FileDiff struct {
	Path   string
	Change string // "added", "missing", "changed" or "not a regular file"
	Detail string // for a changed file, how
}

func (d FileDiff) String() string {
	if d.Detail == "" {
		return d.Change + " " + d.Path
	}
	return d.Change + " " + d.Path + ": " + d.Detail
}

// Diff is the result of VerifyRelease: every file that was added, is missing or
// changed, sorted by path, and how many files matched.
type Diff struct {
	Files   []FileDiff
	Matched int
}

// OK reports whether the folder is exactly what its manifest lists.
func (d Diff) OK() bool { return len(d.Files) == 0 }

// VerifyRelease re-hashes every file below dir and compares it with dir's
// MANIFEST.json: files the manifest does not list are added, files it lists that are
// gone are missing, files whose size or SHA-256 differ are changed. A release is
// regular files inside its folder: a symbolic link, a FIFO, a device or a socket is
// reported as "not a regular file" and never opened, so a link to /dev/zero, a pipe
// or a file outside the folder cannot hang the check or pass for a release file.
// The error is for a folder without a readable manifest or a file that cannot be
// read, or ctx's error when it ends first: the check stops within one read.
func VerifyRelease(ctx context.Context, dir string) (Diff, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return Diff{}, err
	}
	listed := map[string]FileEntry{}
	for _, f := range m.Files {
		listed[f.Path] = f
	}
	var d Diff
	found := map[string]bool{}
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ManifestName {
			return nil
		}
		if !e.Type().IsRegular() {
			found[rel] = true // reported here, not again as missing
			d.Files = append(d.Files, FileDiff{Path: rel, Change: "not a regular file", Detail: annotate.FileKind(e.Type())})
			return nil
		}
		want, ok := listed[rel]
		if !ok {
			d.Files = append(d.Files, FileDiff{Path: rel, Change: "added"})
			return nil
		}
		found[rel] = true
		size, sum, err := HashFile(ctx, p)
		if err != nil {
			return err
		}
		switch {
		case size != want.Size:
			d.Files = append(d.Files, FileDiff{Path: rel, Change: "changed", Detail: fmt.Sprintf("%d bytes, the manifest says %d", size, want.Size)})
		case sum != want.SHA256:
			d.Files = append(d.Files, FileDiff{Path: rel, Change: "changed", Detail: fmt.Sprintf("sha256 %s, the manifest says %s", sum, want.SHA256)})
		default:
			d.Matched++
		}
		return nil
	})
	if err != nil {
		return Diff{}, fmt.Errorf("verify %s: %w", dir, err)
	}
	for _, f := range m.Files {
		if !found[f.Path] {
			d.Files = append(d.Files, FileDiff{Path: f.Path, Change: "missing"})
		}
	}
	slices.SortFunc(d.Files, func(a, b FileDiff) int { return cmp.Compare(a.Path, b.Path) })
	return d, nil
}

// HashFile is the size and hex SHA-256 of the file at p, read until ctx ends: the
// one file hash of exports, their verification and team-server uploads.
func HashFile(ctx context.Context, p string) (int64, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader reads from r until ctx ends, so a long read stops within one call.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
