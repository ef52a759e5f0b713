package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/agreement"
)

// The agreement of a project that holds most of the database's samples reads the
// reviews packed: each query returns a few thousand reviews in one row, one
// column per field, the values joined by packSep (SQLite's group_concat,
// PostgreSQL's string_agg). Row by row, the SQLite driver's cost per row (a cgo
// call, a Go value per column, database/sql's conversions) was several times
// SQLite's own work of stepping through the table (BenchmarkScaleAgreement at
// 100,000 samples: about 1.2 µs a review in the driver, 0.1 µs in SQLite).

// packSep separates the values of a packed column. Stored JSON holds no raw
// control characters; a value that holds one anyway (a sample id, a corrupt
// verdict) gives its column more values than its row's count, and the agreement
// is read row by row instead (packedReviews reports !ok).
const packSep = "\x1e"

// packChunk is how many reviews one packed row holds at most.
const packChunk = 8192

// packed is the aggregate of expr's values joined by one packSep argument, as text.
func (dl dialect) packed(expr string) string {
	if dl.pg {
		return "string_agg(CAST(" + expr + " AS TEXT), ?)"
	}
	return "group_concat(" + expr + ", ?)"
}

// packedColumn walks the values of one packed column.
type packedColumn struct {
	rest string
	done bool
	bad  bool // a value that is not what the column holds (not an integer)
}

func newPackedColumn(s sql.NullString) packedColumn {
	return packedColumn{rest: s.String, done: !s.Valid}
}

// next returns the column's next value; ok is false when it has no more.
func (c *packedColumn) next() (v string, ok bool) {
	if c.done {
		return "", false
	}
	i := strings.Index(c.rest, packSep)
	if i < 0 {
		v, c.rest, c.done = c.rest, "", true
		return v, true
	}
	v, c.rest = c.rest[:i], c.rest[i+len(packSep):]
	return v, true
}

// int is next as an integer.
func (c *packedColumn) int() (int64, bool) {
	v, ok := c.next()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		c.bad = true
		return 0, false
	}
	return n, true
}

// packedSample is what the agreement needs of a sample of the project.
type packedSample struct {
	id      string
	kind    string
	current int64 // its current revision's id, 0 for none
}

// packedRevision is what the agreement needs of a revision of any sample.
type packedRevision struct {
	sample int32 // index into the project's samples; -1: another project's, or a planted copy's
	number int32
}

// revisionTable holds every revision's packedRevision by id: in a slice when the
// ids are dense (a database's usual case: they are numbered from 1), else in a map.
type revisionTable struct {
	dense  []packedRevision // by id; number 0: no such revision (numbers start at 1)
	sparse map[int64]packedRevision
}

func newRevisionTable(ids []int64, revs []packedRevision) revisionTable {
	hi := int64(0)
	for _, id := range ids {
		hi = max(hi, id)
	}
	if slices.ContainsFunc(ids, func(id int64) bool { return id < 0 }) || hi >= int64(4*len(ids)+1024) ||
		slices.ContainsFunc(revs, func(r packedRevision) bool { return r.number <= 0 }) {
		t := revisionTable{sparse: make(map[int64]packedRevision, len(ids))}
		for i, id := range ids {
			t.sparse[id] = revs[i]
		}
		return t
	}
	t := revisionTable{dense: make([]packedRevision, hi+1)}
	for i, id := range ids {
		t.dense[id] = revs[i]
	}
	return t
}

func (t revisionTable) get(id int64) (packedRevision, bool) {
	if t.sparse != nil {
		r, ok := t.sparse[id]
		return r, ok
	}
	if id < 0 || id >= int64(len(t.dense)) || t.dense[id].number == 0 {
		return packedRevision{}, false
	}
	return t.dense[id], true
}

// packedRow is one row of packedReviews' queries, in the order they run: the
// project's samples (part 0), every revision's sample, author and number (part
// 1), a chunk of the reviews (part 2, one or more).
type packedRow struct {
	part int
	n    int // how many values each column holds
	cols [4]sql.NullString
}

// packedReviews reads every review of the database packed, keeping the project's
// reviews of real samples (not planted copies) in rc, and returns the round-3
// facts of the revisions whose round-3 votes it kept: from the project's samples
// (kind and current revision, through the covering index stat_samples_of), every
// revision's number and the set of reviewed revisions, the same facts round3Infos
// reads from stat_rev3 with four look-ups per revision. It lists, in boxRevs,
// the revisions whose boxes the agreement compares, those drawnBoxes finds: of
// the project's real samples whose revisions have two or more authors, from
// every revision's sample, author and number (through the covering index
// stat_revisions_author, migration 36), read before the reviews so that each
// review's sample is found by its revision's id.
// ok is false, with nothing added to rc, when a packed value held a separator:
// the caller reads row by row.
//
// The queries run on a goroutine of their own while this one decodes the rows
// they returned: the database's work and Go's overlap on two cores.
func packedReviews(ctx context.Context, tx *sql.Tx, side *besideReads, dl dialect, projectID int64, rc *reviewCollector) (facts map[int64]round3Info, boxRevs []int64, ok bool, err error) {
	rows := make(chan packedRow, 2)
	stop := make(chan struct{})
	var qerr error // the queries' error, read once rows is closed
	go func() {
		defer close(rows)
		qerr = packedQueries(ctx, tx, side, dl, projectID, rows, stop)
	}()
	defer func() {
		close(stop)
		for range rows { // the queries end before tx is used again
		}
		if err == nil && qerr != nil {
			facts, boxRevs, ok, err = nil, nil, false, qerr
		}
	}()

	var (
		samples   []packedSample
		revisions revisionTable
		got       [3]bool // the parts read, which come in order
	)
	kinds := map[string]string{} // each kind's one string
	var reviewed bitset          // every revision with a review, of any project
	round3 := map[int64]int32{}  // a kept round-3 review's revision → its sample
	for row := range rows {
		if row.part > 0 && !got[row.part-1] {
			return nil, nil, false, fmt.Errorf("the reviews: part %d read before part %d", row.part, row.part-1)
		}
		got[row.part] = true
		switch row.part {
		case 0:
			samples = make([]packedSample, 0, row.n)
			idc, kc, cc := newPackedColumn(row.cols[0]), newPackedColumn(row.cols[1]), newPackedColumn(row.cols[2])
			for range row.n {
				id, ok1 := idc.next()
				kind, ok2 := kc.next()
				cur, ok3 := cc.int()
				if !ok1 || !ok2 || !ok3 {
					return nil, nil, false, nil
				}
				k, seen := kinds[kind]
				if !seen {
					k = strings.Clone(kind)
					kinds[k] = k
				}
				samples = append(samples, packedSample{id: id, kind: k, current: cur})
			}
			if !idc.done || !kc.done || !cc.done {
				return nil, nil, false, nil
			}
			// In the order the revisions come (by sample id), to be walked beside them.
			slices.SortFunc(samples, func(a, b packedSample) int { return strings.Compare(a.id, b.id) })
			for i := 1; i < len(samples); i++ {
				if samples[i].id == samples[i-1].id {
					return nil, nil, false, nil
				}
			}
		case 1:
			// Every revision, each sample's together in the order of their ids, which
			// is the order of the project's samples: the two are walked side by side.
			// A sample's revisions are listed in boxRevs when it has two or more
			// authors.
			ic, sc, ac, nc := newPackedColumn(row.cols[0]), newPackedColumn(row.cols[1]), newPackedColumn(row.cols[2]), newPackedColumn(row.cols[3])
			ids, revs := make([]int64, 0, row.n), make([]packedRevision, 0, row.n)
			var (
				last  string
				at    int   // the next of the project's samples not passed
				mine  int32 // index of last among the project's samples, -1 for none
				multi bool
				first int64   // the author of the sample's first revision read
				srevs []int64 // the sample's revisions
				valid bool
			)
			flush := func() {
				if mine >= 0 && multi {
					boxRevs = append(boxRevs, srevs...)
				}
			}
			for range row.n {
				id, ok1 := ic.int()
				sample, ok2 := sc.next()
				author, ok3 := ac.int()
				num, ok4 := nc.int()
				if !ok1 || !ok2 || !ok3 || !ok4 || num <= 0 || num > 1<<30 {
					return nil, nil, false, nil
				}
				if valid && sample < last { // not in the order asked for: read row by row
					return nil, nil, false, nil
				}
				if !valid || sample != last {
					flush()
					for at < len(samples) && samples[at].id < sample {
						at++
					}
					mine = -1 // not another project's, nor a planted copy
					if at < len(samples) && samples[at].id == sample {
						mine = int32(at)
					}
					last, valid, first, multi, srevs = sample, true, author, false, srevs[:0]
				}
				if mine >= 0 {
					multi = multi || author != first
					srevs = append(srevs, id)
				}
				ids, revs = append(ids, id), append(revs, packedRevision{sample: mine, number: int32(num)})
			}
			flush()
			if !ic.done || !sc.done || !ac.done || !nc.done {
				return nil, nil, false, nil
			}
			revisions = newRevisionTable(ids, revs)
		case 2:
			// rev·8 + round·2 + rejected, verifier, criteria packSub reasons.
			rrr, ver, cr := newPackedColumn(row.cols[0]), newPackedColumn(row.cols[1]), newPackedColumn(row.cols[2])
			var (
				lastRev int64 = -1 // the previous review's revision, looked up in r and found
				r       packedRevision
				found   bool
			)
			for range row.n {
				code, ok1 := rrr.int()
				verifier, ok2 := ver.int()
				v, ok3 := cr.next()
				sub := strings.IndexByte(v, packSub)
				if !ok1 || !ok2 || !ok3 || sub < 0 || strings.LastIndexByte(v, packSub) != sub {
					rc.reset()
					return nil, nil, false, nil
				}
				rev, round := code>>3, int(code>>1&3)
				if rev != lastRev {
					lastRev = rev
					r, found = revisions.get(rev)
				}
				if !found { // a review of no revision read: read row by row
					rc.reset()
					return nil, nil, false, nil
				}
				reviewed.set(rev)
				if r.sample < 0 {
					continue // another project's review, or a planted copy's
				}
				kept, err := addReview(rc, agreement.Judgement{Revision: rev, Reject: code&1 == 1}, samples[r.sample].kind, round, verifier, v[:sub], v[sub+1:])
				if err != nil {
					return nil, nil, false, err
				}
				if kept && round == 3 {
					round3[rev] = r.sample
				}
			}
			if !rrr.done || !ver.done || !cr.done {
				rc.reset()
				return nil, nil, false, nil
			}
		}
	}
	if qerr != nil {
		return nil, nil, false, qerr
	}
	if !got[0] || !got[1] {
		return nil, nil, false, fmt.Errorf("the reviews: the samples or the revisions were not read")
	}
	facts = make(map[int64]round3Info, len(round3))
	for rev, si := range round3 {
		s := samples[si]
		r, _ := revisions.get(rev) // found: its reviews were kept
		in := round3Info{revision: rev, number: int(r.number), currentReviewed: reviewed.has(s.current), sample: strings.Clone(s.id)}
		if cur, ok := revisions.get(s.current); ok {
			in.current = int(cur.number)
		}
		facts[rev] = in
	}
	return facts, boxRevs, true, nil
}

// packSub separates a review's criteria from its reasons in their packed value.
const packSub = '\x1f'

// packedQueries runs packedReviews' queries in tx, sending their rows to rows
// until stop is closed. On PostgreSQL the reviews, most of the work, are read
// beside (besideReads) when a connection is free, from the start: the server
// reads them on one core while it reads the samples and revisions on another
// (at 100,000 samples, 400 ms of the server's work beside 175).
func packedQueries(ctx context.Context, tx *sql.Tx, side *besideReads, dl dialect, projectID int64, rows chan<- packedRow, stop <-chan struct{}) error {
	send := func(r packedRow) bool {
		select {
		case rows <- r:
			return true
		case <-stop:
			return false
		}
	}
	var (
		beside  chan packedRow // the reviews' rows read beside, in order
		sideErr error          // read once beside is closed
	)
	if btx := side.open(ctx); btx != nil {
		beside = make(chan packedRow, 64)
		sideStop := make(chan struct{})
		go func() {
			defer close(beside)
			sideErr = reviewChunks(ctx, btx, dl, func(r packedRow) bool {
				select {
				case beside <- r:
					return true
				case <-sideStop:
					return false
				}
			})
		}()
		defer func() {
			close(sideStop)
			for range beside { // the reviews' reads end before tx's do
			}
		}()
	}
	// The project's samples. NOT IN reads the planted copies once (PostgreSQL
	// looked for each sample's in turn: 100 against 52 ms at 100,000 samples);
	// a planted row's sample is its primary key, never null.
	r := packedRow{part: 0}
	if err := tx.QueryRowContext(ctx, `SELECT count(*), `+dl.packed("s.id")+`, `+dl.packed("s.kind")+`, `+dl.packed("COALESCE(s.current_rev, 0)")+`
		FROM samples s WHERE +s.project_id = ? AND s.id NOT IN (SELECT pl.sample_id FROM planted pl WHERE pl.sample_id IS NOT NULL)`,
		packSep, packSep, packSep, projectID).Scan(&r.n, &r.cols[0], &r.cols[1], &r.cols[2]); err != nil {
		return err
	}
	if !send(r) {
		return nil
	}
	// Every revision's sample, author and number, each sample's together, through
	// the covering index of (sample_id, author_id, number).
	r = packedRow{part: 1}
	if err := tx.QueryRowContext(ctx, `SELECT count(*), `+dl.packed("q.id")+`, `+dl.packed("q.sample_id")+`, `+dl.packed("q.author_id")+`, `+dl.packed("q.number")+`
		FROM (SELECT id, sample_id, author_id, number FROM revisions ORDER BY sample_id) q`,
		packSep, packSep, packSep, packSep).Scan(&r.n, &r.cols[0], &r.cols[1], &r.cols[2], &r.cols[3]); err != nil {
		return err
	}
	if !send(r) {
		return nil
	}
	if beside == nil {
		return reviewChunks(ctx, tx, dl, send)
	}
	for r := range beside {
		if !send(r) {
			return nil
		}
	}
	return sideErr
}

// reviewChunks reads every review, a chunk at a time in the table's order (by
// id, the rowid on SQLite: no index to walk), three values each: the revision,
// round and decision in one number, the verifier, the criteria and reasons. It
// stops when send returns false.
func reviewChunks(ctx context.Context, tx *sql.Tx, dl dialect, send func(packedRow) bool) error {
	stmt, err := tx.PrepareContext(ctx, `SELECT count(*), max(q.id), `+dl.packed("q.rrr")+`, `+dl.packed("q.verifier_id")+`, `+dl.packed("q.cr")+`
		FROM (SELECT id, revision_id * 8 + round * 2 + CASE WHEN decision = 'reject' THEN 1 ELSE 0 END AS rrr, verifier_id,
			criteria || ? || COALESCE(NULLIF(reasons, '[]'), '') AS cr FROM reviews WHERE id > ? ORDER BY id LIMIT ?) q`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	last := int64(-1 << 63)
	for {
		r := packedRow{part: 2}
		var maxID sql.NullInt64
		if err := stmt.QueryRowContext(ctx, packSep, packSep, packSep, string(rune(packSub)), last, packChunk).
			Scan(&r.n, &maxID, &r.cols[0], &r.cols[1], &r.cols[2]); err != nil {
			return err
		}
		if r.n == 0 {
			break
		}
		if !maxID.Valid {
			return fmt.Errorf("the reviews: a chunk without its last id")
		}
		last = maxID.Int64
		if !send(r) {
			return nil
		}
	}
	return stmt.Close()
}

// bitset is a set of non-negative integers (revision ids).
type bitset []uint64

func (b *bitset) set(i int64) {
	if i < 0 {
		return
	}
	w := int(i >> 6)
	if w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b))...)
	}
	(*b)[w] |= 1 << (i & 63)
}

func (b bitset) has(i int64) bool {
	w := int(i >> 6)
	return i >= 0 && w < len(b) && b[w]&(1<<(i&63)) != 0
}

// sortByRevision sorts list by cmp, which orders by revision first: the
// judgements are placed by revision (a counting sort, when the revisions' ids
// span at most a few times as many values as list holds) and each revision's few
// are then sorted by cmp, in a tenth of the comparisons of a sort by cmp alone.
func sortByRevision(list []agreement.Judgement, cmp func(a, b agreement.Judgement) int) {
	if len(list) == 0 {
		return
	}
	lo, hi := list[0].Revision, list[0].Revision
	for _, j := range list {
		lo, hi = min(lo, j.Revision), max(hi, j.Revision)
	}
	if span := uint64(hi - lo); span >= uint64(4*len(list)+1024) {
		slices.SortFunc(list, cmp)
		return
	}
	at := make([]int32, hi-lo+2) // at[r-lo+1]: how many judgements of revisions before r, once summed
	for _, j := range list {
		at[j.Revision-lo+1]++
	}
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	sorted := make([]agreement.Judgement, len(list))
	for _, j := range list {
		i := j.Revision - lo
		sorted[at[i]] = j
		at[i]++
	}
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && sorted[end].Revision == sorted[start].Revision {
			end++
		}
		if end-start > 1 {
			slices.SortFunc(sorted[start:end], cmp)
		}
		start = end
	}
	copy(list, sorted)
}
