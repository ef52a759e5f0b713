// Package synth generates synthetic Benchwright projects: a testing aid for
// benchmarks, fault tests and `bwctl gen-project`, never linked into the app.
//
// It owns everything about test data at scale: the generated accounts (ann1…ann8,
// ver1…ver9 in groups A, B, C), the JPEG images of mixed sizes in scene folders
// (images.go), lint-clean sample content of every kind (content.go) and the samples'
// review histories (history.go). The histories are not written from a copy of the
// protocol's rules: every simulated submit, review, correction and withdrawal is
// decided by the verify package's own functions (Transition, Record, Correct), the
// ones a real review goes through, and the generator keeps the state and the review
// they return. A move verify refuses is an error, never a row, so a generated history
// cannot break the protocol.
//
// Images are imported with store's real import (hashes, previews and thumbnails are
// the import's own); accounts and samples go through store's bulk API
// (DB.BulkAddUsers, DB.BulkWriteSamples), which holds the only SQL.
package synth

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// Options describe a synthetic project for Generate.
type Options struct {
	Project string
	// Lead is the lead account: created on a database without accounts, otherwise
	// signed in with Password. Default "lead".
	Lead string
	// Password is the lead's password, and the password of every generated account.
	Password string
	Samples  int
	Images   int
	Seed     uint64
	// ImageDir receives the generated JPEG files; it must be missing or empty. Default:
	// "<project>-images" beside the database.
	ImageDir string
	// Large is how many images are 4000×3000 (12 megapixels); the others are small
	// (320×240 to 640×480, one in 50 1280×960) so that 20,000 images stay quick to
	// write and import. 0 means DefaultLarge(Images), negative none.
	Large int
	// Progress, when set, is told how far each stage ("images", "import",
	// "samples") has got.
	Progress func(stage string, done, total int)
}

// Result sums up what Generate wrote.
type Result struct {
	Project   bench.Project
	ImageDir  string
	Images    int
	Samples   int
	Revisions int
	Reviews   int
	Counts    map[verify.State]int
}

// DefaultLarge is the number of 4000×3000 images Generate makes among n: one in a
// hundred, at most 20, at least one.
func DefaultLarge(n int) int { return max(1, min(20, n/100)) }

// The accounts Generate adds besides the lead: annotators and verifiers in three groups.
var (
	annotatorNames = []string{"ann1", "ann2", "ann3", "ann4", "ann5", "ann6", "ann7", "ann8"}
	verifierNames  = []bench.User{
		{Name: "ver1", Group: "A"}, {Name: "ver2", Group: "A"}, {Name: "ver3", Group: "A"},
		{Name: "ver4", Group: "B"}, {Name: "ver5", Group: "B"}, {Name: "ver6", Group: "B"},
		{Name: "ver7", Group: "C"}, {Name: "ver8", Group: "C"}, {Name: "ver9", Group: "C"},
	}
)

// batchSize is the number of samples written per transaction.
const batchSize = 2000

// Generate builds a synthetic project in db: the lead and the accounts ann1…ann8 and
// ver1…ver9 (groups A, B, C; existing accounts of those names are reused),
// opt.Images generated JPEG images of mixed sizes in scene folders, imported with
// ImportImages, and opt.Samples samples of every kind in every state. Their histories
// are played through verify under the project's policy: submissions, approvals that
// judge every criterion yes, rejections that fail a criterion or name another
// problem, revised resubmissions, verifiers' corrections and withdrawals. The same
// seed gives the same images and samples. Samples are written in batches of one
// transaction each, audited by one "generate.samples" row per batch; the per-sample
// history of the audit log stays empty.
func Generate(ctx context.Context, db *store.DB, opt Options) (Result, error) {
	res, err := generate(ctx, db, opt)
	if err != nil {
		return res, fmt.Errorf("generate project %q: %w", opt.Project, err)
	}
	return res, nil
}

func generate(ctx context.Context, db *store.DB, opt Options) (Result, error) {
	var res Result
	if opt.Lead == "" {
		opt.Lead = "lead"
	}
	if opt.Samples < 0 || opt.Images < 1 {
		return res, fmt.Errorf("%w: need at least one image and no negative sample count (samples %d, images %d)", bench.ErrInvalid, opt.Samples, opt.Images)
	}
	switch {
	case opt.Large == 0:
		opt.Large = DefaultLarge(opt.Images)
	case opt.Large < 0:
		opt.Large = 0
	}
	opt.Large = min(opt.Large, opt.Images)
	if opt.ImageDir == "" && db.Postgres() {
		return res, fmt.Errorf("%w: a PostgreSQL database has no folder beside it for the generated images; name one", bench.ErrInvalid)
	}
	if opt.ImageDir == "" {
		opt.ImageDir = filepath.Join(filepath.Dir(db.Path()), strings.ReplaceAll(opt.Project, " ", "_")+"-images")
	}
	if ents, err := os.ReadDir(opt.ImageDir); err == nil && len(ents) > 0 {
		return res, fmt.Errorf("%w: image folder %s is not empty", bench.ErrConflict, opt.ImageDir)
	}
	progress := func(stage string, done, total int) {
		if opt.Progress != nil {
			opt.Progress(stage, done, total)
		}
	}

	// Generated reviews stand under verifiers' names: never in a database with real work.
	if err := db.MarkSynthetic(ctx); err != nil {
		return res, err
	}
	lead, err := signInLead(ctx, db, opt.Lead, opt.Password)
	if err != nil {
		return res, err
	}
	p, err := db.CreateProject(ctx, lead, opt.Project)
	if err != nil {
		return res, err
	}
	res.Project, res.ImageDir = p, opt.ImageDir
	anns, vers, err := addAccounts(ctx, db, lead, opt.Password)
	if err != nil {
		return res, err
	}

	if err := writeImages(ctx, opt, progress); err != nil {
		return res, err
	}
	imp, err := db.ImportImages(ctx, lead, p.ID, opt.ImageDir, func(ip bench.ImportProgress) { progress("import", ip.Done, ip.Total) })
	if err != nil {
		return res, err
	}
	if len(imp.Rejected)+len(imp.Duplicate) > 0 {
		return res, fmt.Errorf("generated images not all imported: %d rejected, %d duplicates", len(imp.Rejected), len(imp.Duplicate))
	}
	ims, err := db.Images(ctx, lead, p.ID, 0, opt.Images)
	if err != nil {
		return res, err
	}
	res.Images = len(ims)

	g := &generator{
		rng: rand.New(rand.NewPCG(opt.Seed, 0x62656e6368)), project: p, policy: p.Settings.Policy(), images: ims,
		lead: lead, annotators: anns, verifiers: vers,
		base: time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC),
	}
	if err := g.policy.Validate(); err != nil {
		return res, err
	}
	batches := func(yield func([]store.BulkSample, error) bool) {
		for start := 0; start < opt.Samples; start += batchSize {
			batch := make([]store.BulkSample, 0, batchSize)
			var err error
			for i := start; i < min(start+batchSize, opt.Samples) && err == nil; i++ {
				var s store.BulkSample
				if s, err = g.sample(i); err == nil {
					batch = append(batch, s)
				}
			}
			if !yield(batch, err) || err != nil {
				return
			}
			progress("samples", start+len(batch), opt.Samples)
		}
	}
	w, err := db.BulkWriteSamples(ctx, lead, p.ID, batches)
	res.Samples, res.Revisions, res.Reviews = w.Samples, w.Revisions, w.Reviews
	if err != nil {
		return res, err
	}
	if res.Counts, err = db.StatusCounts(ctx, lead, p.ID); err != nil {
		return res, err
	}
	return res, nil
}

// signInLead creates the first lead on an empty database, or signs the lead in.
func signInLead(ctx context.Context, db *store.DB, name, password string) (bench.User, error) {
	has, err := db.HasUsers(ctx)
	if err != nil {
		return bench.User{}, err
	}
	if !has {
		return db.CreateFirstLead(ctx, name, password)
	}
	return db.Authenticate(ctx, name, password)
}

// addAccounts adds the generated accounts that are missing and returns the
// annotators and the verifiers, who must be in at least two named groups so that
// round 2 can follow round 1.
func addAccounts(ctx context.Context, db *store.DB, lead bench.User, password string) (anns, vers []bench.User, err error) {
	var want []bench.User
	for _, n := range annotatorNames {
		want = append(want, bench.User{Name: n, Role: bench.RoleAnnotator})
	}
	for _, v := range verifierNames {
		want = append(want, bench.User{Name: v.Name, Role: bench.RoleVerifier, Group: v.Group})
	}
	us, err := db.BulkAddUsers(ctx, lead, want, password)
	if err != nil {
		return nil, nil, err
	}
	groups := map[string]bool{}
	var names []string
	for _, u := range us {
		if u.Role == bench.RoleAnnotator {
			anns = append(anns, u)
			continue
		}
		vers = append(vers, u)
		groups[u.Group] = true
		names = append(names, u.Name)
	}
	if len(groups) < 2 || groups[""] {
		return nil, nil, fmt.Errorf("%w: the verifiers %s must be in at least two named groups", bench.ErrConflict, strings.Join(names, ", "))
	}
	return anns, vers, nil
}
