package agreement

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// valuesOf lists j's values on the criteria of its kind and round, as "id=yes".
func valuesOf(js *Judgements, j Judgement) []string {
	var out []string
	for i, c := range js.judged(j) {
		out = append(out, c.ID+"="+js.value(j, i).label())
	}
	return out
}

// TestJudgementsAdd: a review's value on each criterion of its kind and round is
// its judgement, else no when the criterion is a reason, else missing; the stored
// JSON is read in the form json.Marshal writes and in any other valid form.
func TestJudgementsAdd(t *testing.T) {
	const hop, other = string(annotate.KindHopQA), string(annotate.KindJudgment)
	for _, tc := range []struct {
		name              string
		kind              string
		round             int8
		criteria, reasons string
		want              []string
		err               bool
	}{
		{"approval", hop, 1, `{"answer_correct":true,"box_on_answer":true,"follows_template":true,"objects_exist":true}`, `[]`,
			[]string{"objects_exist=yes", "box_on_answer=yes", "follows_template=yes", "answer_correct=yes"}, false},
		{"a failed criterion and one not judged", hop, 1, `{"answer_correct":false,"objects_exist":true}`, `["answer_correct"]`,
			[]string{"objects_exist=yes", "box_on_answer=", "follows_template=", "answer_correct=no"}, false},
		{"a reason without a judgement is no", hop, 1, `{}`, `["box_on_answer","other"]`,
			[]string{"objects_exist=", "box_on_answer=no", "follows_template=", "answer_correct="}, false},
		{"a judgement wins over a reason", hop, 1, `{"box_on_answer":true}`, `["box_on_answer"]`,
			[]string{"objects_exist=", "box_on_answer=yes", "follows_template=", "answer_correct="}, false},
		{"no reasons (null)", hop, 1, `{"objects_exist":false}`, ``,
			[]string{"objects_exist=no", "box_on_answer=", "follows_template=", "answer_correct="}, false},
		{"criteria of another round are not judged here", hop, 1, `{"natural_grammar":false}`, `["not_eliminable"]`,
			[]string{"objects_exist=", "box_on_answer=", "follows_template=", "answer_correct="}, false},
		{"the same in round 2, where they are", hop, 2, `{"natural_grammar":false}`, `["not_eliminable"]`,
			[]string{"objects_exist=", "box_on_answer=", "follows_template=", "answer_correct=", "natural_grammar=no", "not_eliminable=no"}, false},
		{"another kind", other, 3, `{"natural_grammar":false,"answerable":false}`, `["answer_correct"]`,
			[]string{"answerable=no", "answer_correct=no", "format_followed="}, false},
		{"round 1's positions", hop, 1, `{"box_precise":false,"objects_exist":true}`, `[]`,
			[]string{"objects_exist=yes", "box_on_answer=", "follows_template=", "answer_correct="}, false},
		{"round 3's positions", hop, 3, `{"box_precise":false,"objects_exist":true}`, `[]`,
			[]string{"option_entities_exist=", "box_precise=no", "answer_unique="}, false},
		{"hop QA's positions", hop, 1, `{"answer_correct":false}`, `[]`,
			[]string{"objects_exist=", "box_on_answer=", "follows_template=", "answer_correct=no"}, false},
		{"another kind's positions", other, 1, `{"answer_correct":false}`, `[]`,
			[]string{"answerable=", "answer_correct=no", "format_followed="}, false},
		{"spaces and escapes (not json.Marshal's form)", hop, 1, "{ \"objects_\\u0065xist\" : true }", "[ \"box_on_answer\" ]",
			[]string{"objects_exist=yes", "box_on_answer=no", "follows_template=", "answer_correct="}, false},
		{"a criterion named twice takes the last value", hop, 1, `{"objects_exist":true,"objects_exist":false}`, `[]`,
			[]string{"objects_exist=no", "box_on_answer=", "follows_template=", "answer_correct="}, false},
		{"an unknown kind judges nothing", "puzzle", 1, `{"objects_exist":true}`, `[]`, nil, false},
		{"criteria not JSON", hop, 1, `{"objects_exist":tru`, `[]`, nil, true},
		{"reasons not JSON", hop, 1, `{}`, `["a"`, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reasons []byte
			if tc.reasons != "" {
				reasons = []byte(tc.reasons)
			}
			// Each case is added alone and after every other case, so that a form
			// decoded before is taken from the cache.
			var shared Judgements
			for _, c := range []string{"", "a", "b"} {
				shared.Coder(c)
			}
			for i, other := range []struct {
				kind              string
				round             int8
				criteria, reasons string
			}{{hop, 1, `{"natural_grammar":false}`, `["not_eliminable"]`}, {hop, 2, `{"natural_grammar":false}`, `["not_eliminable"]`},
				{other, 3, `{"natural_grammar":false,"answerable":false}`, `["answer_correct"]`}, {hop, 1, `{}`, `["box_on_answer","other"]`},
				{hop, 1, `{"box_precise":false,"objects_exist":true}`, `[]`}, {hop, 3, `{"box_precise":false,"objects_exist":true}`, `[]`},
				{hop, 1, `{"answer_correct":false}`, `[]`}, {other, 1, `{"answer_correct":false}`, `[]`}} {
				if err := shared.Add(Judgement{Revision: int64(i), Coder: 1, Round: other.round}, other.kind, []byte(other.criteria), []byte(other.reasons)); err != nil {
					t.Fatal(err)
				}
			}
			// Add and AddText (the verdict as strings) alike; AddText after Add on
			// shared finds the form Add decoded.
			for i, js := range []*Judgements{{}, &shared, {}, &shared} {
				c := js.Coder("v")
				var err error
				if i < 2 {
					err = js.Add(Judgement{Revision: 9, Coder: c, Round: tc.round, Reject: true}, tc.kind, []byte(tc.criteria), reasons)
				} else {
					err = js.AddText(Judgement{Revision: 9, Coder: c, Round: tc.round, Reject: true}, tc.kind, tc.criteria, tc.reasons)
				}
				if tc.err {
					if err == nil {
						t.Fatalf("Add took %s %s", tc.criteria, tc.reasons)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				j := js.List[len(js.List)-1]
				if got := valuesOf(js, j); !slices.Equal(got, tc.want) {
					t.Errorf("values %v, want %v", got, tc.want)
				}
				if j.Revision != 9 || j.Coder != c || j.Round != tc.round || j.Decision() != verify.DecisionReject {
					t.Errorf("judgement %+v", j)
				}
			}
		})
	}
}

// randomJudgements are n revisions' judgements by 9 verifiers in every round and
// kind, with approvals judging every criterion and rejections failing one or naming
// it, or another problem, as the protocol stores them.
func randomJudgements(t testing.TB, n int, seed uint64) *Judgements {
	rng := rand.New(rand.NewPCG(seed, 3))
	js := &Judgements{}
	for i := range 9 {
		js.Coder(fmt.Sprintf("ver%d", i+1))
	}
	for rev := range int64(n) {
		kind := annotate.Kinds[rng.IntN(len(annotate.Kinds))]
		for round := int8(1); round <= 3; round++ {
			voters := 1
			if round == 3 || rng.IntN(4) == 0 {
				voters = 2 + rng.IntN(2)
			}
			for _, v := range rng.Perm(9)[:voters] {
				crits := verify.Criteria(kind, int(round))
				judged := map[string]bool{}
				var reasons []string
				reject := rng.IntN(5) == 0
				for _, c := range crits {
					judged[c.ID] = !reject || rng.IntN(3) > 0
					if !judged[c.ID] {
						reasons = append(reasons, c.ID)
					}
				}
				if reject && rng.IntN(3) == 0 {
					delete(judged, crits[0].ID)
					reasons = append(reasons, crits[0].ID, "other")
				}
				crit, _ := json.Marshal(judged)
				rs, _ := json.Marshal(reasons)
				if err := js.Add(Judgement{Revision: rev, Coder: int32(v), Round: round, Reject: reject}, string(kind), crit, rs); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return js
}

// TestTablesOnAnyNumberOfCores: the tables' passes and their bootstraps shared out
// among goroutines give the figures one goroutine gives.
func TestTablesOnAnyNumberOfCores(t *testing.T) {
	js := randomJudgements(t, 400, 1)
	defer func(t, b func() int) { tablesWorkers, bootstrapWorkers = t, b }(tablesWorkers, bootstrapWorkers)
	var want Tables
	for i, workers := range []int{1, 2, 7} {
		tablesWorkers = func() int { return workers }
		bootstrapWorkers = func() int { return workers }
		got, err := js.Tables(context.Background(), 200, 5)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			want = got
			defined := 0
			for _, r := range got.Rows {
				if r.Figure.Undefined == "" {
					defined++
				}
			}
			if defined < 10 || len(got.Coders) != 9 {
				t.Fatalf("%d defined rows, %d verifiers: too few to compare", defined, len(got.Coders))
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("on %d goroutines the tables differ from one goroutine's", workers)
		}
	}
}
