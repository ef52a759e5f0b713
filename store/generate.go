package store

// Synthetic scale projects: a testing aid for benchmarks and fault tests, never used by
// the app itself. Generate writes real JPEG files and imports them through
// ImportImages (so hashes, sizes, previews and thumbnails are made by the import's own
// code), then inserts samples, revisions and reviews directly, in large batched
// transactions, with one summary audit row per batch instead of one per event.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// GenerateOptions describe a synthetic project for Generate.
type GenerateOptions struct {
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

// GenerateResult sums up what Generate wrote.
type GenerateResult struct {
	Project   Project
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
	genAnnotators = []string{"ann1", "ann2", "ann3", "ann4", "ann5", "ann6", "ann7", "ann8"}
	genVerifiers  = []User{
		{Name: "ver1", Group: "A"}, {Name: "ver2", Group: "A"}, {Name: "ver3", Group: "A"},
		{Name: "ver4", Group: "B"}, {Name: "ver5", Group: "B"}, {Name: "ver6", Group: "B"},
		{Name: "ver7", Group: "C"}, {Name: "ver8", Group: "C"}, {Name: "ver9", Group: "C"},
	}
)

// genBatch is the number of samples written per transaction.
const genBatch = 2000

// Generate builds a synthetic project (a testing aid for benchmarks and fault tests):
// the lead and the accounts ann1…ann8 and ver1…ver9 (groups A, B, C; existing accounts
// of those names are reused), opt.Images generated JPEG images of mixed sizes in scene
// folders, imported with ImportImages, and opt.Samples samples of every kind in every
// state whose revisions and reviews follow the protocol (round 2 by another group than
// round 1, a round-3 panel of three other verifiers, rejections with reasons, revised
// resubmissions, withdrawals). The same seed gives the same images and samples.
// Samples are inserted directly, in batches of one transaction each, audited by one
// "generate.samples" row per batch; the per-sample history of the audit log stays empty.
func (d *DB) Generate(ctx context.Context, opt GenerateOptions) (GenerateResult, error) {
	res, err := d.generate(ctx, opt)
	if err != nil {
		return res, fmt.Errorf("generate project %q: %w", opt.Project, err)
	}
	return res, nil
}

func (d *DB) generate(ctx context.Context, opt GenerateOptions) (GenerateResult, error) {
	var res GenerateResult
	if opt.Lead == "" {
		opt.Lead = "lead"
	}
	if opt.Samples < 0 || opt.Images < 1 {
		return res, fmt.Errorf("%w: need at least one image and no negative sample count (samples %d, images %d)", ErrInvalid, opt.Samples, opt.Images)
	}
	if err := validProjectName(opt.Project); err != nil {
		return res, err
	}
	switch {
	case opt.Large == 0:
		opt.Large = DefaultLarge(opt.Images)
	case opt.Large < 0:
		opt.Large = 0
	}
	opt.Large = min(opt.Large, opt.Images)
	if opt.ImageDir == "" {
		opt.ImageDir = filepath.Join(filepath.Dir(d.path), strings.ReplaceAll(opt.Project, " ", "_")+"-images")
	}
	if ents, err := os.ReadDir(opt.ImageDir); err == nil && len(ents) > 0 {
		return res, fmt.Errorf("%w: image folder %s is not empty", ErrConflict, opt.ImageDir)
	}
	progress := func(stage string, done, total int) {
		if opt.Progress != nil {
			opt.Progress(stage, done, total)
		}
	}

	lead, err := d.generateLead(ctx, opt.Lead, opt.Password)
	if err != nil {
		return res, err
	}
	p, err := d.CreateProject(ctx, lead, opt.Project)
	if err != nil {
		return res, err
	}
	res.Project, res.ImageDir = p, opt.ImageDir
	anns, vers, err := d.generateUsers(ctx, lead, opt.Password)
	if err != nil {
		return res, err
	}

	if err := writeGeneratedImages(ctx, opt, progress); err != nil {
		return res, err
	}
	imp, err := d.ImportImages(ctx, lead, p.ID, opt.ImageDir, func(ip ImportProgress) { progress("import", ip.Done, ip.Total) })
	if err != nil {
		return res, err
	}
	if len(imp.Rejected)+len(imp.Duplicate) > 0 {
		return res, fmt.Errorf("generated images not all imported: %d rejected, %d duplicates", len(imp.Rejected), len(imp.Duplicate))
	}
	var ims []genImage
	err = d.inTx(ctx, func(tx *sql.Tx) error {
		ims, err = queryAll(ctx, tx, func(r scanner) (genImage, error) {
			var im genImage
			err := r.Scan(&im.id, &im.rel, &im.scene, &im.w, &im.h)
			return im, err
		}, `SELECT id, rel_path, scene, width, height FROM images WHERE project_id = ? ORDER BY rel_path`, p.ID)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Images = len(ims)

	if groups := map[string]bool{}; len(vers) >= 5 {
		for _, v := range vers {
			groups[v.Group] = true
		}
		if len(groups) < 2 || groups[""] {
			return res, fmt.Errorf("%w: the verifiers %s must be in at least two named groups", ErrConflict, userNames(vers))
		}
	}
	g := &generator{
		rng: rand.New(rand.NewPCG(opt.Seed, 0x62656e6368)), project: p, images: ims,
		lead: lead, annotators: anns, verifiers: vers,
		base: time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC),
	}
	for start := 0; start < opt.Samples; start += genBatch {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		batch := make([]genSample, 0, genBatch)
		for i := start; i < min(start+genBatch, opt.Samples); i++ {
			s, err := g.sample(i, opt.Samples)
			if err != nil {
				return res, err
			}
			batch = append(batch, s)
		}
		if err := d.insertGenerated(ctx, lead, p, batch, start); err != nil {
			return res, err
		}
		for _, s := range batch {
			res.Revisions += len(s.revs)
			res.Reviews += len(s.reviews)
		}
		res.Samples += len(batch)
		progress("samples", res.Samples, opt.Samples)
	}
	if res.Counts, err = d.StatusCounts(ctx, p.ID); err != nil {
		return res, err
	}
	return res, nil
}

func userNames(us []User) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.Name
	}
	return strings.Join(names, ", ")
}

// generateLead creates the first lead on an empty database, or signs the lead in.
func (d *DB) generateLead(ctx context.Context, name, password string) (User, error) {
	has, err := d.HasUsers(ctx)
	if err != nil {
		return User{}, err
	}
	if !has {
		return d.CreateFirstLead(ctx, name, password)
	}
	return d.Authenticate(ctx, name, password)
}

// generateUsers adds the generated accounts that are missing (one password hash shared
// by all, one audit row) and returns the annotators and verifiers.
func (d *DB) generateUsers(ctx context.Context, lead User, password string) (anns, vers []User, err error) {
	hash, err := hashPassword(password)
	if err != nil {
		return nil, nil, err
	}
	err = d.act(ctx, lead, "generate.users", func(tx *sql.Tx) error {
		anns, vers = nil, nil
		a, err := requireAction(ctx, tx, lead, verify.ActionGenerate)
		if err != nil {
			return err
		}
		var added []string
		want := []User{}
		for _, n := range genAnnotators {
			want = append(want, User{Name: n, Role: RoleAnnotator})
		}
		for _, v := range genVerifiers {
			want = append(want, User{Name: v.Name, Role: RoleVerifier, Group: v.Group})
		}
		for _, w := range want {
			u, err := userByName(ctx, tx, w.Name)
			if errors.Is(err, ErrNotFound) {
				r, err := tx.ExecContext(ctx, `INSERT INTO users (name, role, grp, password_hash, created_at) VALUES (?, ?, ?, ?, ?)`,
					w.Name, w.Role, w.Group, hash, d.now())
				if err != nil {
					return err
				}
				u = w
				u.ID, _ = r.LastInsertId()
				added = append(added, w.Name)
			} else if err != nil {
				return err
			} else if u.Role != w.Role {
				return fmt.Errorf("%w: account %s exists as %s, the generator needs it as %s", ErrConflict, u.Name, u.Role, w.Role)
			}
			if u.Role == RoleAnnotator {
				anns = append(anns, u)
			} else {
				vers = append(vers, u)
			}
		}
		if len(added) == 0 {
			return nil
		}
		return d.audit(ctx, tx, a.ID, "generate.users", "user", strings.Join(added, ","), "testing aid: generated accounts")
	})
	return anns, vers, err
}

// genImage is an imported generated image.
type genImage struct {
	id         int64
	rel, scene string
	w, h       int
}

var genSceneTypes = []string{"office", "kitchen", "bedroom", "living-room", "garage", "classroom", "lab", "street"}

// genImagePath is image i's path: eight images per scene folder NNNN-<type>-<k>.
func genImagePath(i int) string {
	scene := i / 8
	typ := genSceneTypes[scene%len(genSceneTypes)]
	return filepath.Join(fmt.Sprintf("%04d-%s-%d", scene+1, typ, scene/len(genSceneTypes)+1), fmt.Sprintf("img_%03d.jpg", i%8+1))
}

// genImageSize is image i's size: Large of them spread evenly are 4000×3000.
func genImageSize(i, n, large int, rng *rand.Rand) (int, int) {
	if large > 0 && i%(n/large) == 0 && i/(n/large) < large {
		return 4000, 3000
	}
	if rng.IntN(50) == 0 {
		return 1280, 960
	}
	sizes := [][2]int{{320, 240}, {400, 300}, {480, 360}, {640, 480}, {360, 480}}
	s := sizes[rng.IntN(len(sizes))]
	return s[0], s[1]
}

// writeGeneratedImages writes the JPEG files on all cores.
func writeGeneratedImages(ctx context.Context, opt GenerateOptions, progress func(string, int, int)) error {
	jobs := make(chan int)
	errs := make(chan error, runtime.NumCPU())
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := writeGeneratedImage(opt, i); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				done++
				progress("images", done, opt.Images)
				mu.Unlock()
			}
		}()
	}
	var err error
feed:
	for i := 0; i < opt.Images; i++ {
		select {
		case jobs <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	return err
}

// writeGeneratedImage draws image i: a gradient, a few boxes and a row of blocks
// spelling its index (so that every file has its own content), all from the seed.
func writeGeneratedImage(opt GenerateOptions, i int) error {
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(i)+1<<40))
	w, h := genImageSize(i, opt.Images, opt.Large, rng)
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	cb0, cr0 := uint8(rng.IntN(256)), uint8(rng.IntN(256))
	for y := 0; y < h; y++ {
		row := img.Y[y*img.YStride : y*img.YStride+w]
		for x := range row {
			row[x] = uint8((x*160/w + y*80/h + 16) & 0xff)
		}
	}
	for j := range img.Cb {
		img.Cb[j], img.Cr[j] = cb0, cr0
	}
	for k := 0; k < 6; k++ {
		bw, bh := w/8+rng.IntN(w/4), h/8+rng.IntN(h/4)
		x0, y0 := rng.IntN(w-bw), rng.IntN(h-bh)
		yv, cb, cr := uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256))
		for y := y0; y < y0+bh; y++ {
			for x := x0; x < x0+bw; x++ {
				img.Y[img.YOffset(x, y)] = yv
				img.Cb[img.COffset(x, y)], img.Cr[img.COffset(x, y)] = cb, cr
			}
		}
	}
	block := max(8, w/80)
	for bit := 0; bit < 32; bit++ {
		v := uint8(16)
		if uint64(i)>>bit&1 == 1 {
			v = 235
		}
		for y := 0; y < block; y++ {
			for x := bit * block; x < (bit+1)*block && x < w; x++ {
				img.Y[img.YOffset(x, y)] = v
			}
		}
	}
	path := filepath.Join(opt.ImageDir, genImagePath(i))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 80}); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// genSample is one planned sample with its revisions and reviews.
type genSample struct {
	id, kind, status, prev string
	imageID, author        int64
	draft                  string
	version                int
	created, updated       string
	revs                   []genRev
	reviews                []genReview
}

type genRev struct {
	content, change, at string
	author              int64
}

type genReview struct {
	rev, round                 int // rev indexes genSample.revs
	verifier                   int64
	criteria, decision, reason string
	seconds                    float64
	at                         string
}

// generator plans samples from one random stream, so a seed gives the same project.
type generator struct {
	rng                   *rand.Rand
	project               Project
	images                []genImage
	lead                  User
	annotators, verifiers []User
	base                  time.Time
	clock                 time.Time
}

func (g *generator) tick() string {
	g.clock = g.clock.Add(time.Duration(1+g.rng.IntN(240)) * time.Minute)
	return g.clock.Format(time.RFC3339Nano)
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// weighted picks an index with probability proportional to its weight.
func weighted(rng *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := rng.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// sample plans sample i of n. The first 35 cover every kind in every state; the
// rest follow the weights of a project in full swing.
func (g *generator) sample(i, n int) (genSample, error) {
	var kind annotate.Kind
	var target verify.State
	if i < len(annotate.Kinds)*len(verify.States) {
		kind, target = annotate.Kinds[i%len(annotate.Kinds)], verify.States[i/len(annotate.Kinds)]
	} else {
		kind = annotate.Kinds[weighted(g.rng, 50, 20, 10, 10, 10)]
		target = verify.States[weighted(g.rng, 8, 20, 15, 15, 30, 8, 4)]
	}
	s := genSample{id: fmt.Sprintf("%s-%06d", strings.ReplaceAll(g.project.Name, " ", "_"), i+1), kind: string(kind)}
	author := pick(g.rng, g.annotators)
	if g.rng.IntN(50) == 0 {
		author = g.lead
	}
	s.author = author.ID
	im := pick(g.rng, g.images)
	s.imageID = im.id
	content := g.content(kind, s.id, im)
	g.clock = g.base.Add(time.Duration(i) * time.Minute)
	s.created = g.tick()
	s.version = 1

	flowTo := target
	if target == verify.StateWithdrawn {
		flowTo = verify.States[weighted(g.rng, 2, 2, 1, 1, 2, 1)]
		s.prev = string(flowTo)
	}
	if err := g.flow(&s, content, flowTo); err != nil {
		return s, fmt.Errorf("sample %s: %w", s.id, err)
	}
	if target == verify.StateWithdrawn {
		s.status = string(verify.StateWithdrawn)
		s.version++
		s.updated = g.tick()
	}
	return s, nil
}

// flow takes s from creation to target: drafts are saved a few times; submitted
// samples get a revision, sometimes a rejected first revision and a revised second
// one, and the reviews their state needs.
func (g *generator) flow(s *genSample, content annotate.Sample, target verify.State) error {
	s.updated = s.created
	saves := g.rng.IntN(4)
	s.version += saves
	for range saves {
		s.updated = g.tick()
	}
	if target == verify.StateDraft {
		return g.setDraft(s, content)
	}
	if err := g.submit(s, content, "submit"); err != nil {
		return err
	}
	if target != verify.StateReturned && g.rng.IntN(4) == 0 {
		g.reject(s, 1+weighted(g.rng, 5, 3, 2))
		if q, ok := strings.CutSuffix(content.Question, "?"); ok {
			content.Question = q + " in this picture?"
		} else {
			content.Question += " carefully"
		}
		s.version++ // the author's edit
		if err := g.submit(s, content, "revise"); err != nil {
			return err
		}
	}
	switch target {
	case verify.StateRound1:
	case verify.StateRound2:
		g.approveTo(s, 1)
	case verify.StateRound3:
		g.approveTo(s, 2+g.rng.IntN(3))
	case verify.StateAccepted:
		g.approveTo(s, 5)
	case verify.StateReturned:
		g.reject(s, 1+weighted(g.rng, 5, 3, 2))
	default:
		return fmt.Errorf("cannot plan state %q", target)
	}
	s.status = string(target)
	return nil
}

func (g *generator) setDraft(s *genSample, content annotate.Sample) error {
	b, err := json.Marshal(content)
	if err != nil {
		return err
	}
	s.draft, s.status = string(b), string(verify.StateDraft)
	return nil
}

// submit adds a revision and puts the sample in round 1.
func (g *generator) submit(s *genSample, content annotate.Sample, change string) error {
	if err := g.setDraft(s, content); err != nil {
		return err
	}
	s.updated = g.tick()
	s.revs = append(s.revs, genRev{content: s.draft, change: change, at: s.updated, author: s.author})
	s.status = string(verify.StateRound1)
	s.version++
	return nil
}

// panel picks the verifiers of the current revision: round 1, round 2 from another
// group, and three distinct others for round 3.
func (g *generator) panel() []User {
	v1 := pick(g.rng, g.verifiers)
	others := slices.DeleteFunc(slices.Clone(g.verifiers), func(u User) bool { return u.Group == v1.Group || u.ID == v1.ID })
	v2 := pick(g.rng, others)
	rest := slices.DeleteFunc(slices.Clone(g.verifiers), func(u User) bool { return u.ID == v1.ID || u.ID == v2.ID })
	g.rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	return append([]User{v1, v2}, rest[:3]...)
}

// approveTo records the first k approvals of the current revision (1: round 1,
// 2: round 2, 3–5: round-3 votes; 5 accepts).
func (g *generator) approveTo(s *genSample, k int) {
	p := g.panel()
	for j := 0; j < k; j++ {
		g.review(s, min(j+1, 3), p[j], nil)
	}
}

// reject records the current revision's rejection in round: the earlier rounds
// approved it, and in round 3 some panel members may have approved before.
func (g *generator) reject(s *genSample, round int) {
	p := g.panel()
	k := round - 1
	if round == 3 {
		k += g.rng.IntN(3)
	}
	for j := 0; j < k; j++ {
		g.review(s, min(j+1, 3), p[j], nil)
	}
	crit := verify.Criteria(annotate.Kind(s.kind), round)
	failed := []string{pick(g.rng, crit).ID}
	if g.rng.IntN(3) == 0 {
		failed = append(failed, pick(g.rng, crit).ID)
	}
	g.review(s, round, p[k], failed)
	s.status = string(verify.StateReturned)
}

// review records one decision on the current revision: an approval when failed is
// empty, else a rejection failing those criteria.
func (g *generator) review(s *genSample, round int, v User, failed []string) {
	j := map[string]bool{}
	for _, c := range verify.Criteria(annotate.Kind(s.kind), round) {
		j[c.ID] = !slices.Contains(failed, c.ID)
	}
	crit, _ := json.Marshal(j)
	decision, reasons := verify.DecisionApprove, []byte("[]")
	if len(failed) > 0 {
		decision = verify.DecisionReject
		reasons, _ = json.Marshal(verify.ReasonsFor(j))
	}
	s.updated = g.tick()
	s.reviews = append(s.reviews, genReview{
		rev: len(s.revs) - 1, round: round, verifier: v.ID, criteria: string(crit), decision: string(decision),
		reason: string(reasons), seconds: float64(10 + g.rng.IntN(170)), at: s.updated,
	})
	if len(failed) > 0 || round < 3 || round == 3 && countRound3(s) == 3 {
		s.version++ // the review moved the sample
	}
}

func countRound3(s *genSample) int {
	n := 0
	for _, r := range s.reviews {
		if r.rev == len(s.revs)-1 && r.round == 3 {
			n++
		}
	}
	return n
}

var genObjects = []string{"the mug", "the kettle", "the laptop", "the book", "the chair", "the lamp", "the plant",
	"the bottle", "the backpack", "the keyboard", "the phone", "the cup", "the bowl", "the pillow", "the clock",
	"the monitor", "the towel", "the box", "the jar", "the shoe", "the stapler", "the remote"}

// content writes a lint-clean sample of kind on image im.
func (g *generator) content(kind annotate.Kind, id string, im genImage) annotate.Sample {
	r := g.rng
	s := annotate.Sample{ID: id, Kind: kind, Image: im.rel}
	objs := slices.Clone(genObjects)
	r.Shuffle(len(objs), func(a, b int) { objs[a], objs[b] = objs[b], objs[a] })
	if r.IntN(3) == 0 {
		s.Task = fmt.Sprintf("T%d", r.IntN(8))
	}
	if r.IntN(2) == 0 {
		s.Split = pick(r, []string{"train", "test"})
	}
	switch kind {
	case annotate.KindHopQA:
		sets := [][]annotate.Category{{"pos"}, {"rel"}, {"att", "pos"}, {"att", "rel"}, {"pos", "rel"}, {"att", "pos", "rel"}}
		s.Categories = pick(r, sets)
		s.Hop = len(s.Categories)
		q := "which"
		if slices.Contains(s.Categories, annotate.CatAtt) {
			q += " " + pick(r, []string{"round", "open", "red", "wooden", "tall"})
		}
		q += " object"
		if slices.Contains(s.Categories, annotate.CatPos) {
			q += " " + pick(r, []string{"on the desk", "on the left side of the image", "near the door", "on the shelf"})
		}
		if slices.Contains(s.Categories, annotate.CatRel) {
			q += " is " + pick(r, []string{"closest", "farthest", "highest", "largest"})
		}
		if r.IntN(2) == 0 {
			s.View, s.EgoSubject = annotate.ViewEgo, pick(r, []annotate.EgoSubject{annotate.EgoReal, annotate.EgoVirtual})
			desc := map[annotate.EgoSubject]string{annotate.EgoReal: "the person at the table", annotate.EgoVirtual: "by the window"}[s.EgoSubject]
			s.Question = annotate.SubjectPhrase(s.EgoSubject, desc) + " " + q + "?"
		} else {
			s.View = annotate.ViewExo
			s.Question = strings.ToUpper(q[:1]) + q[1:] + "?"
		}
		s.Options = objs[:4]
		s.AnswerIndex = r.IntN(4)
		x1, y1 := r.IntN(im.w*3/5), r.IntN(im.h*3/5)
		x2, y2 := x1+8+r.IntN(im.w/3), y1+8+r.IntN(im.h/3)
		s.Box = &annotate.Box{float64(x1), float64(y1), float64(min(x2, im.w)), float64(min(y2, im.h))}
	case annotate.KindStepGraph:
		// An in-tree towards the final step: every other step is the precondition of
		// exactly one later step, so there is one sink and no transitive edge.
		target := objs[0]
		s.Question = "Pick up " + target
		s.Scene = im.scene
		n := 2 + r.IntN(7)
		s.Steps = make([]annotate.Step, n)
		for k := 0; k < n; k++ {
			s.Steps[k] = annotate.Step{ID: fmt.Sprintf("step%d", k+1), Content: fmt.Sprintf("Remove %s from the top of %s", objs[1+k], target), Precondition: []string{}}
		}
		s.Steps[n-1].Content = "Pick up " + target
		for k := 0; k < n-1; k++ {
			next := k + 1 + r.IntN(n-1-k)
			s.Steps[next].Precondition = append(s.Steps[next].Precondition, s.Steps[k].ID)
		}
	case annotate.KindJudgment:
		s.Question = fmt.Sprintf("Is %s to the left of %s?", objs[0], objs[1])
		s.AnswerText = pick(r, []string{"yes", "no"})
	case annotate.KindMCQ:
		k := 2 + r.IntN(5)
		s.Question = fmt.Sprintf("Which object is nearest to %s?", objs[k])
		s.Options = objs[:k]
		s.AnswerIndex = r.IntN(k)
	case annotate.KindOpen:
		if r.IntN(2) == 0 {
			s.Question = fmt.Sprintf("How far is %s from %s, in metres?", objs[0], objs[1])
			s.AnswerText = fmt.Sprintf("%.1f", 0.2+float64(r.IntN(40))/10)
			tol := 0.25
			s.Tolerance = &tol
		} else {
			s.Question = fmt.Sprintf("How many objects stand on %s?", objs[0])
			s.AnswerText = fmt.Sprint(1 + r.IntN(6))
			s.AnswerNumber = true
		}
	}
	return s
}

// insertGenerated writes one batch of planned samples in one transaction, audited by
// one summary row.
func (d *DB) insertGenerated(ctx context.Context, lead User, p Project, batch []genSample, start int) error {
	return d.act(ctx, lead, "generate.samples", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, lead, verify.ActionGenerate)
		if err != nil {
			return err
		}
		var revID int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM revisions`).Scan(&revID); err != nil {
			return err
		}
		insS, err := tx.PrepareContext(ctx, `INSERT INTO samples (id, project_id, image_id, kind, status, prev_status, author_id,
			draft, current_rev, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insS.Close()
		insRev, err := tx.PrepareContext(ctx, `INSERT INTO revisions (id, sample_id, number, content, author_id, change, reason, created_at)
			VALUES (?, ?, ?, ?, ?, ?, '', ?)`)
		if err != nil {
			return err
		}
		defer insRev.Close()
		insRv, err := tx.PrepareContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision,
			reasons, comment, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, ?)`)
		if err != nil {
			return err
		}
		defer insRv.Close()
		for _, s := range batch {
			first := revID + 1
			var cur any
			if len(s.revs) > 0 {
				cur = first + int64(len(s.revs)) - 1
			}
			if _, err := insS.ExecContext(ctx, s.id, p.ID, s.imageID, s.kind, s.status, s.prev, s.author,
				s.draft, cur, s.version, s.created, s.updated); err != nil {
				return fmt.Errorf("sample %s: %w", s.id, err)
			}
			for k, r := range s.revs {
				revID++
				if _, err := insRev.ExecContext(ctx, revID, s.id, k+1, r.content, r.author, r.change, r.at); err != nil {
					return fmt.Errorf("sample %s revision %d: %w", s.id, k+1, err)
				}
			}
			for _, r := range s.reviews {
				if _, err := insRv.ExecContext(ctx, s.id, first+int64(r.rev), r.round, r.verifier, r.criteria, r.decision,
					r.reason, r.seconds, r.at); err != nil {
					return fmt.Errorf("sample %s review: %w", s.id, err)
				}
			}
		}
		return d.audit(ctx, tx, a.ID, "generate.samples", "project", fmt.Sprint(p.ID),
			fmt.Sprintf("testing aid: samples %d–%d inserted directly", start+1, start+len(batch)))
	})
}
