package store

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The store's SQL is written once, in the dialect SQLite and PostgreSQL share.
// The driver changes only how parameters are written, what sqlx and xorm do too:
// ? becomes $1, $2, …; :name (sql.Named) becomes the $n of that name; a bool
// argument is the integer 0 or 1, as SQLite stores it (a ? inside /* */ comments is
// not handled: the store's SQL has none). A statement without arguments is sent as
// it is written. Where the engines' SQL differs in
// meaning — the JSON array table function, a join in a fixed order, a full-text
// match — the query says so where it is built, through a dialect call
// (store/dialect.go). julianday, json_extract and instr exist on PostgreSQL as
// functions of the schema (store/migrations_pg). TestPostgresTranslation lists
// what the driver does.

// pgQuery is a statement prepared for translation: its text with placeholders
// numbered, and which argument each placeholder takes.
type pgQuery struct {
	text  string
	slots []pgSlot // in order of appearance
}

// pgSlot is one placeholder: positional (name "") or named.
type pgSlot struct {
	name string
}

var pgCache sync.Map // SQL text → *pgQuery

// pgTranslate returns query and args as PostgreSQL takes them.
func pgTranslate(query string, args []driver.NamedValue) (string, []driver.NamedValue, error) {
	if len(args) == 0 {
		// Nothing to number: the text is PostgreSQL's own, as written — a schema
		// script's $$ bodies, or an index definition read back from the server
		// (pgRebuildIndexes), whose ? may be an operator (jsonb's).
		return query, args, nil
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
// comments and marks each with \x00.
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
			b.WriteString(query[i:j]) // a name: a : or ? inside it is not a placeholder
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
