package config

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"
)

// Errors in a modules file say where (file:line:col, as editors and compilers do)
// and, for an unknown key, which known key was probably meant.

// pos is a place in the modules file.
type pos struct{ line, col int }

// positions records where each module and each of its keys is, read from the
// file's node tree; errors found after decoding (validation) are placed with it.
type positions struct {
	modules map[string]pos
	fields  map[string]map[string]pos // module -> key -> position of the key
	top     map[string]pos
	sources map[string]pos            // discovery source -> position of its name
	srcKeys map[string]map[string]pos // source -> dotted key (filters.name) -> position
}

func newPositions(root *yaml.Node) positions {
	p := positions{modules: map[string]pos{}, fields: map[string]map[string]pos{}, top: map[string]pos{},
		sources: map[string]pos{}, srcKeys: map[string]map[string]pos{}}
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return p
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		p.top[k.Value] = pos{k.Line, k.Column}
		if k.Value == "target_policy" && v.Kind == yaml.MappingNode {
			f := map[string]pos{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				f[v.Content[j].Value] = pos{v.Content[j].Line, v.Content[j].Column}
			}
			p.fields[policyKeys] = f
		}
		if k.Value == "discovery" && v.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(v.Content); j += 2 {
				sk := v.Content[j]
				p.sources[sk.Value] = pos{sk.Line, sk.Column}
				p.srcKeys[sk.Value] = map[string]pos{}
				keyPositions(v.Content[j+1], "", p.srcKeys[sk.Value])
			}
		}
		if k.Value != "modules" || v.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			mk, mv := v.Content[j], v.Content[j+1]
			p.modules[mk.Value] = pos{mk.Line, mk.Column}
			f := map[string]pos{}
			if mv.Kind == yaml.MappingNode {
				for l := 0; l+1 < len(mv.Content); l += 2 {
					f[mv.Content[l].Value] = pos{mv.Content[l].Line, mv.Content[l].Column}
				}
			}
			p.fields[mk.Value] = f
		}
	}
	return p
}

// keyPositions records where each key of a mapping is, nested keys dotted.
func keyPositions(n *yaml.Node, prefix string, into map[string]pos) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		into[prefix+k.Value] = pos{k.Line, k.Column}
		keyPositions(n.Content[i+1], prefix+k.Value+".", into)
	}
}

// policyKeys keys the target_policy block's fields in positions.fields (no module
// name can be empty).
const policyKeys = ""

// fieldError is a module key that is wrong; Parse places it at the key.
type fieldError struct {
	field string
	msg   string
}

func (e *fieldError) Error() string { return e.msg }

// blockError is an error of a module's protocol block; Parse places it at the
// block when the module has one.
type blockError struct {
	block string
	err   error
}

func (e *blockError) Error() string { return e.block + ": " + e.err.Error() }
func (e *blockError) Unwrap() error { return e.err }

// moduleKeys are the keys a module may have (protocol blocks besides).
var moduleKeys = []string{"protocol", "timeout", "port", "port_offsets", "description", "players", "rules",
	"max_player_series", "preferred_ip_protocol", "cache_ttl", "ip_protocol_fallback", "retries", "targets", "listed_in"}

var topKeys = []string{"modules", "target_policy", "discovery"}

// suggest returns ` (did you mean "x"?)` for the known key nearest to key, or "".
func suggest(key string, known []string) string {
	best, bestD := "", len(key)/2+2 // a suggestion must be closer than a rewrite
	for _, k := range known {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// syntaxError places a YAML syntax error. yaml.v3 reports some indentation errors
// at the line where the enclosing block began (often line 1): the first line whose
// indentation matches no open block is the real place.
func syntaxError(file string, b []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if l, ok := badIndent(b); ok && (line == 0 || l > line) {
		return fmt.Errorf("%s:%d: %s: indentation matches no enclosing block", file, l, msg)
	}
	if line > 0 {
		return fmt.Errorf("%s:%d: %s", file, line, msg)
	}
	return fmt.Errorf("%s: %s", file, msg)
}

// badIndent finds the first line indented to no open block: deeper than the line
// before without that line opening a block, or between two open levels.
func badIndent(b []byte) (int, bool) {
	stack := []int{0}
	opens := false
	for i, raw := range strings.Split(string(b), "\n") {
		t := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimLeft(t, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ind := len(t) - len(trimmed)
		if strings.HasPrefix(trimmed, "- ") || trimmed == "-" {
			ind += 2 // a list item's content is indented past its dash
		}
		top := stack[len(stack)-1]
		switch {
		case ind > top:
			if !opens {
				return i + 1, true
			}
			stack = append(stack, ind)
		case ind < top:
			for len(stack) > 1 && stack[len(stack)-1] > ind {
				stack = stack[:len(stack)-1]
			}
			if stack[len(stack)-1] != ind {
				return i + 1, true
			}
		}
		opens = strings.HasSuffix(trimmed, ":") || strings.HasSuffix(trimmed, "|") || strings.HasSuffix(trimmed, ">")
	}
	return 0, false
}

var notFound = regexp.MustCompile(`^line (\d+): field (\S+) not found in type config\.(\w+)$`)

// decodeError places the strict decoder's errors: unknown keys get their column
// and a suggestion; values that do not parse (durations) are found by walking
// the modules for the one that fails.
func decodeError(file string, root *yaml.Node, p positions, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var out []string
		for _, e := range te.Errors {
			if m := notFound.FindStringSubmatch(e); m != nil {
				known, where := topKeys, p.top
				if m[3] == "TargetPolicy" {
					known, where = []string{"allow", "deny"}, p.fields[policyKeys]
				}
				col := 1
				if q, ok := where[m[2]]; ok {
					col = q.col
				}
				out = append(out, fmt.Sprintf("%s:%s:%d: unknown field %q%s", file, m[1], col, m[2], suggest(m[2], known)))
				continue
			}
			if m := yamlLine.FindStringSubmatch(e); m != nil {
				out = append(out, fmt.Sprintf("%s:%s: %s", file, m[1], m[2]))
				continue
			}
			out = append(out, file+": "+e)
		}
		return errors.New(strings.Join(out, "\n"))
	}
	if q, key, ok := badDuration(root); ok {
		return fmt.Errorf("%s:%d:%d: %s: %v", file, q.line, q.col, key, err)
	}
	return fmt.Errorf("%s: %v", file, err)
}

// badDuration finds the first timeout or cache_ttl value that is no duration.
func badDuration(n *yaml.Node) (pos, string, bool) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if (k.Value == "timeout" || k.Value == "cache_ttl") && v.Kind == yaml.ScalarNode {
				if _, err := model.ParseDuration(v.Value); err != nil {
					return pos{v.Line, v.Column}, k.Value, true
				}
			}
		}
	}
	for _, c := range n.Content {
		if q, k, ok := badDuration(c); ok {
			return q, k, ok
		}
	}
	return pos{}, "", false
}

// moduleError places a module's validation error: at the offending key when it
// names one, else at the module's name.
func moduleError(file string, p positions, name string, err error) error {
	var fe *fieldError
	var be *blockError
	field := ""
	if errors.As(err, &fe) {
		field = fe.field
	} else if errors.As(err, &be) {
		field = be.block
	}
	if field != "" {
		if q, ok := p.fields[name][field]; ok {
			return fmt.Errorf("%s:%d:%d: module %q: %w", file, q.line, q.col, name, err)
		}
	}
	if q, ok := p.modules[name]; ok {
		return fmt.Errorf("%s:%d:%d: module %q: %w", file, q.line, q.col, name, err)
	}
	return fmt.Errorf("%s: module %q: %w", file, name, err)
}

// sourceError places a discovery source's error: at the offending key when it
// names one, else at the source's name.
func sourceError(file string, p positions, name string, err error) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		if q, ok := p.srcKeys[name][fe.field]; ok {
			return fmt.Errorf("%s:%d:%d: discovery: source %q: %w", file, q.line, q.col, name, err)
		}
	}
	if q, ok := p.sources[name]; ok {
		return fmt.Errorf("%s:%d:%d: discovery: source %q: %w", file, q.line, q.col, name, err)
	}
	return fmt.Errorf("%s: discovery: source %q: %w", file, name, err)
}

// inFileOrder sorts errors placed in file (file:line:...) by line, as an editor
// lists them; those placed nowhere come last.
func inFileOrder(file string, errs []error) {
	line := func(err error) int {
		rest, ok := strings.CutPrefix(err.Error(), file+":")
		n := 0
		for ok && len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
			n = n*10 + int(rest[0]-'0')
			rest = rest[1:]
		}
		if n == 0 {
			return math.MaxInt
		}
		return n
	}
	slices.SortStableFunc(errs, func(a, b error) int { return cmp.Compare(line(a), line(b)) })
}
