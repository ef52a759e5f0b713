package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/release"
)

// demoDB writes the demo project and returns the database and its image folder.
func demoDB(t *testing.T) (db, images string) {
	t.Helper()
	dir := t.TempDir()
	db = filepath.Join(dir, "demo.db")
	if code, out, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errOut)
	}
	return db, filepath.Join(dir, "demo-images")
}

func TestAuditFreezeExportVerify(t *testing.T) {
	db, _ := demoDB(t)
	out := t.TempDir()
	lead := pw("demo")
	cases := []cliCase{
		{name: "audit: only shortfalls", env: lead, args: []string{"audit", "--db", db, "--as", "lead", "--project", "demo"}, code: 0,
			wantOut: []string{"warning\tbalance\t-\thop QA, 1-hop, ego: 0 of 750 accepted, 750 short", "3 accepted samples, 2 images: 0 errors, 6 warnings"},
			notOut:  []string{"error\t"}, outLines: 7},
		{name: "audit --json", env: lead, args: []string{"audit", "--db", db, "--as", "lead", "--json"}, code: 0,
			wantOut: []string{`{"severity":"warning","check":"balance","message":"hop QA, 3-hop, exo: 0 of 750 accepted, 750 short"}`},
			wantErr: []string{"0 errors, 6 warnings"}, outLines: 6},
		{name: "audit by an annotator", env: pw("demo"), args: []string{"audit", "--db", db, "--as", "ann1"}, code: 1,
			wantErr: []string{"ann1 is an annotator, and only leads may audit releases"}, emptyOut: true},
		{name: "freeze needs a name", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--version", "1"}, code: 2,
			wantErr: []string{"--name and --version are required"}},
		{name: "freeze: bad split", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--name", "b", "--version", "1", "--split", "test=1.5"}, code: 2,
			wantErr: []string{`--split "test=1.5"`}},
		{name: "freeze: bad kind", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--name", "b", "--version", "1", "--kinds", "hop_qa,poem"}, code: 2,
			wantErr: []string{`unknown kind "poem"`}},
		{name: "freeze by an annotator", env: pw("demo"), args: []string{"freeze", "--db", db, "--as", "ann2", "--name", "b", "--version", "1"}, code: 1,
			wantErr: []string{"only leads may freeze releases"}},
		{name: "freeze", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--project", "demo", "--name", "demo-bench", "--version", "1.0"}, code: 0,
			wantOut: []string{"froze demo-bench@1.0: 3 samples\n"}, emptyStErr: true},
		{name: "freeze with split and kinds", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--name", "demo-bench", "--version", "1.1",
			"--kinds", "hop_qa,judgment", "--split", "test=0.5", "--seed", "3"}, code: 0,
			wantOut: []string{"froze demo-bench@1.1: 2 samples, train 1, test 1\n"}},
		{name: "freeze the same version again", env: lead, args: []string{"freeze", "--db", db, "--as", "lead", "--name", "demo-bench", "--version", "1.0"}, code: 1,
			wantErr: []string{"demo-bench@1.0 exists already"}},
		{name: "releases", args: []string{"releases", "--db", db}, code: 0, outLines: 2,
			wantOut: []string{"demo-bench@1.1\t2 samples, train 1, test 1\tfrozen by lead at ", "demo-bench@1.0\t3 samples\tfrozen by lead"}},
		{name: "export: unknown format", args: []string{"export", "--db", db, "--release", "demo-bench@1.0", "--format", "xml", "--out", filepath.Join(out, "x")}, code: 2,
			wantErr: []string{`unknown export format "xml"`}},
		{name: "export: unknown release", args: []string{"export", "--db", db, "--release", "demo-bench@9", "--format", "coco", "--out", filepath.Join(out, "x")}, code: 1,
			wantErr: []string{"demo-bench@9: not found"}},
		{name: "export: missing --out", args: []string{"export", "--db", db, "--release", "demo-bench@1.0", "--format", "coco"}, code: 2,
			wantErr: []string{"--release, --format and --out are required"}},
	}
	for _, format := range release.Formats() {
		f := format.Name()
		cases = append(cases, cliCase{name: "export " + f, env: lead,
			args: []string{"export", "--db", db, "--as", "lead", "--release", "demo-bench@1.0", "--format", f, "--out", filepath.Join(out, f)},
			code: 0, wantOut: []string{"exported demo-bench@1.0 as " + f + " to " + filepath.Join(out, f)}, emptyStErr: true})
		cases = append(cases, cliCase{name: "verify " + f, args: []string{"verify-release", filepath.Join(out, f)},
			code: 0, wantOut: []string{"ok: ", " files match MANIFEST.json"}, outLines: 1})
	}
	cases = append(cases,
		cliCase{name: "export into a full folder", args: []string{"export", "--db", db, "--release", "demo-bench@1.0", "--format", "native", "--out", filepath.Join(out, "native")},
			code: 1, wantErr: []string{"is not empty"}},
		cliCase{name: "export --circular", env: lead,
			args: []string{"export", "--db", db, "--as", "lead", "--release", "demo-bench@1.0", "--format", "vlmevalkit", "--circular", "--out", filepath.Join(out, "circ")},
			code: 0, wantOut: []string{"exported demo-bench@1.0 as vlmevalkit-circular to "}, emptyStErr: true},
		cliCase{name: "verify the circular export", args: []string{"verify-release", filepath.Join(out, "circ")},
			code: 0, wantOut: []string{"ok: ", " files match MANIFEST.json"}, outLines: 1},
		cliCase{name: "export --circular of another format", args: []string{"export", "--db", db, "--release", "demo-bench@1.0", "--format", "coco", "--circular", "--out", filepath.Join(out, "x")},
			code: 2, wantErr: []string{"--circular is for --format vlmevalkit"}},
		cliCase{name: "verify a folder without manifest", args: []string{"verify-release", t.TempDir()}, code: 2, wantErr: []string{"MANIFEST.json"}},
		cliCase{name: "verify without a folder", args: []string{"verify-release"}, code: 2, wantErr: []string{"usage: bwctl verify-release DIR"}},
	)
	runCases(t, cases)

	// Only hop QA fits MultihopSpatial; the export says what it left out.
	code, stdout, _ := bwctl("export", "--db", db, "--release", "demo-bench@1.1", "--format", "multihopspatial", "--out", filepath.Join(out, "mh11"))
	if code != 0 || !strings.Contains(stdout, "1 samples") || !strings.Contains(stdout, "left out, not held by this format: 1 judgment") {
		t.Errorf("export of 1.1: %d %s", code, stdout)
	}
	var m release.Manifest
	b, _ := os.ReadFile(filepath.Join(out, "mh11", release.ManifestName))
	if err := json.Unmarshal(b, &m); err != nil || m.Creator != "" || m.Release.Split == nil || m.Release.Split.Seed != 3 {
		t.Errorf("anonymous export's manifest: %+v %v", m, err)
	}
}

func TestVerifyReleaseCatchesOneByte(t *testing.T) {
	db, _ := demoDB(t)
	setPasswords(t, pw("demo"))
	if code, _, errOut := bwctl("freeze", "--db", db, "--as", "lead", "--name", "b", "--version", "1"); code != 0 {
		t.Fatal(errOut)
	}
	dir := filepath.Join(t.TempDir(), "b")
	if code, _, errOut := bwctl("export", "--db", db, "--release", "b@1", "--format", "native", "--out", dir); code != 0 {
		t.Fatal(errOut)
	}
	img := filepath.Join(dir, "images", "0001-office-1", "img_001.jpg")
	data, err := os.ReadFile(img)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0x01
	os.WriteFile(img, data, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hi"), 0o644)
	runCases(t, []cliCase{{name: "tampered", args: []string{"verify-release", dir}, code: 1,
		wantOut: []string{"changed images/0001-office-1/img_001.jpg: sha256 ", "added notes.txt\n"}, outLines: 2,
		wantErr: []string{"2 files differ from MANIFEST.json, 2 match"}}})
}

func TestAuditAndFreezeRefuseAChangedImage(t *testing.T) {
	db, images := demoDB(t)
	p := filepath.Join(images, "0002-kitchen-1", "img_001.jpg")
	data, _ := os.ReadFile(p)
	data[len(data)/2] ^= 0x80
	os.WriteFile(p, data, 0o644)
	runCases(t, []cliCase{
		{name: "audit", env: pw("demo"), args: []string{"audit", "--db", db, "--as", "lead"}, code: 1,
			wantOut: []string{"error\timage-hash\t0002-kitchen-1/img_001.jpg\timage file ", "changed since import", "(used by demo-yn-001)", "1 errors, 6 warnings"}},
		{name: "freeze", env: pw("demo"), args: []string{"freeze", "--db", db, "--as", "lead", "--name", "b", "--version", "1"}, code: 1,
			wantErr: []string{"the audit found 1 error.", "image-hash"}},
		{name: "nothing frozen", args: []string{"releases", "--db", db}, code: 0, emptyOut: true},
	})
}
