package store

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// The store's SQL is written once, in the dialect SQLite and PostgreSQL share.
// Where they differ, the SQL says it SQLite's way and pgSQL rewrites it for
// PostgreSQL, at the driver, so that no store method has two versions:
//
//   - parameters: ? becomes $1, $2, …; :name (sql.Named) becomes the $n of that
//     name; a bool argument is the integer 0 or 1, as SQLite stores it;
//   - json_each(?) becomes bw_json_each(?), a function of the PostgreSQL schema;
//   - CROSS JOIN … ON (SQLite's fixed join order) becomes JOIN … ON (a CROSS
//     JOIN without ON, a ? inside /* */ comments and MATCH :name are not handled:
//     the store's SQL has none);
//   - "X MATCH ?" on sample_words becomes a text search on X's tsv (its body's
//     words, a stored column of the PostgreSQL schema), and its
//     argument, an FTS4 query from matchQuery, the same query in tsquery syntax.
//
// julianday, json_extract and instr exist on PostgreSQL as functions of the schema
// (store/migrations_pg). Everything else the store writes is SQL both engines read
// alike; TestPostgresTranslation lists the rewrites.

// pgQuery is a statement prepared for translation: its text with placeholders
// numbered, and which argument each placeholder takes.
type pgQuery struct {
	text  string
	slots []pgSlot // in order of appearance
	match []int    // indexes into slots whose argument is an FTS4 query
}

// pgSlot is one placeholder: positional (name "") or named.
type pgSlot struct {
	name string
}

var pgCache sync.Map // SQL text → *pgQuery

// pgTranslate returns query and args as PostgreSQL takes them.
func pgTranslate(query string, args []driver.NamedValue) (string, []driver.NamedValue, error) {
	if len(args) == 0 && strings.Contains(query, "$$") {
		return query, args, nil // a schema script: its $$ bodies are PostgreSQL's own
	}
	q, ok := pgCache.Load(query)
	if !ok {
		q, _ = pgCache.LoadOrStore(query, parsePG(query))
	}
	pq := q.(*pgQuery)
	// Positional arguments are taken in order; a name refers to its argument.
	byName := map[string]int{}
	for i, a := range args {
		if a.Name != "" {
			byName[a.Name] = i
		}
	}
	// SQLite stores a Go bool as the integer 0 or 1, and so do the store's columns.
	for i, a := range args {
		if b, ok := a.Value.(bool); ok {
			args[i].Value = int64(boolInt(b))
		}
	}
	out := make([]driver.NamedValue, 0, len(pq.slots))
	nums := make([]string, len(pq.slots))
	pos := 0
	numOfName := map[string]int{}
	for i, s := range pq.slots {
		if s.name != "" {
			if n, ok := numOfName[s.name]; ok {
				nums[i] = "$" + strconv.Itoa(n)
				continue
			}
			j, ok := byName[s.name]
			if !ok {
				return "", nil, fmt.Errorf("query names :%s, which no argument has", s.name)
			}
			out = append(out, driver.NamedValue{Ordinal: len(out) + 1, Value: args[j].Value})
			numOfName[s.name] = len(out)
			nums[i] = "$" + strconv.Itoa(len(out))
			continue
		}
		for pos < len(args) && args[pos].Name != "" {
			pos++
		}
		if pos >= len(args) {
			return "", nil, fmt.Errorf("query has more placeholders than arguments (%d)", len(args))
		}
		out = append(out, driver.NamedValue{Ordinal: len(out) + 1, Value: args[pos].Value})
		pos++
		nums[i] = "$" + strconv.Itoa(len(out))
	}
	for ; pos < len(args); pos++ {
		if args[pos].Name == "" {
			return "", nil, fmt.Errorf("query has fewer placeholders than arguments (%d)", len(args))
		}
	}
	for _, i := range pq.match {
		n, _ := strconv.Atoi(nums[i][1:])
		if s, ok := out[n-1].Value.(string); ok {
			out[n-1].Value = tsQuery(s)
		}
	}
	// Fill the numbers into the text: each placeholder was left as \x00.
	var b strings.Builder
	k := 0
	for _, part := range strings.Split(pq.text, "\x00") {
		b.WriteString(part)
		if k < len(nums) {
			b.WriteString(nums[k])
			k++
		}
	}
	return b.String(), out, nil
}

// parsePG finds the placeholders of query outside literals, quoted names and
// comments, marks each with \x00, and applies the rewrites above.
func parsePG(query string) *pgQuery {
	var b strings.Builder
	q := &pgQuery{}
	n := len(query)
	for i := 0; i < n; i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < n {
				if query[j] == c {
					if j+1 < n && query[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(query[i:min(j+1, n)])
			i = j
		case c == '-' && i+1 < n && query[i+1] == '-':
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				j = n - i
			}
			b.WriteString(query[i : i+j])
			i += j - 1
		case c == '?':
			q.slots = append(q.slots, pgSlot{})
			b.WriteByte(0)
		case c == ':' && i+1 < n && isNameStart(query[i+1]) && (i == 0 || query[i-1] != ':'):
			j := i + 1
			for j < n && isNamePart(query[j]) {
				j++
			}
			q.slots = append(q.slots, pgSlot{name: query[i+1 : j]})
			b.WriteByte(0)
			i = j - 1
		case isNameStart(c) && (i == 0 || !isNamePart(query[i-1])):
			j := i
			for j < n && isNamePart(query[j]) {
				j++
			}
			word := query[i:j]
			switch {
			case strings.EqualFold(word, "json_each") && j < n && query[j] == '(':
				b.WriteString("bw_json_each")
			case strings.EqualFold(word, "CROSS") && strings.HasPrefix(strings.ToUpper(strings.TrimLeft(query[j:], " \t\n")), "JOIN") &&
				!strings.HasPrefix(strings.ToUpper(strings.TrimLeft(strings.TrimLeft(query[j:], " \t\n")[4:], " \t\n")), "LATERAL"):
				// SQLite's CROSS JOIN … ON fixes the join order; PostgreSQL
				// takes it as a plain join.
				j = n - len(strings.TrimLeft(query[j:], " \t\n"))
			case strings.EqualFold(word, "MATCH"):
				// "<alias.>sample_words MATCH ?": the table's name stands for its text.
				s := b.String()
				t := strings.TrimRight(s, " \t\n")
				k := strings.LastIndexAny(t, " \t\n(")
				table := t[k+1:]
				alias := strings.TrimSuffix(table, "sample_words")
				b.Reset()
				b.WriteString(t[:k+1])
				fmt.Fprintf(&b, "%stsv @@ to_tsquery('simple',", alias)
				// the next placeholder is the query
				rest := strings.TrimLeft(query[j:], " \t\n")
				if strings.HasPrefix(rest, "?") {
					q.match = append(q.match, len(q.slots))
					q.slots = append(q.slots, pgSlot{})
					b.WriteString(" \x00)")
					j = n - len(rest) + 1
				}
			default:
				b.WriteString(word)
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	q.text = b.String()
	return q
}

func isNameStart(c byte) bool { return c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isNamePart(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// tsQuery turns an FTS4 query of matchQuery's form ("w1 w2*" "w3*": phrases whose
// last word is a prefix, all required) into PostgreSQL's tsquery syntax.
func tsQuery(fts string) string {
	var phrases []string
	for _, p := range strings.Split(fts, `"`) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		prefix := strings.HasSuffix(p, "*")
		words := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			continue
		}
		if prefix {
			words[len(words)-1] += ":*"
		}
		phrases = append(phrases, "("+strings.Join(words, " <-> ")+")")
	}
	if len(phrases) == 0 {
		return "''"
	}
	return strings.Join(phrases, " & ")
}
