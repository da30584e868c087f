package config

import (
	"fmt"
	"regexp"
	"slices"
)

// validName is what a module name may be: it goes into URLs (?module=), labels and
// file lines (`module target`), so no spaces, quotes or punctuation beyond these.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

func checkName(name string) error {
	if len(name) > 64 || !validName.MatchString(name) {
		return fmt.Errorf("module name %q: use at most 64 letters, digits, '_', '-' and '.', starting with a letter or digit", name)
	}
	return nil
}

// shadowWarnings warns of each module of the file that replaces a built-in one
// (a catalog game's, say `valheim: {protocol: a2s}`) with other ports: the file's
// module wins whole, so the built-in's game port and query port offsets are gone
// unless the file repeats them. builtins are the replaced built-in modules, mods
// the compiled config's.
func shadowWarnings(file string, p positions, builtins, mods map[string]*Module) []string {
	var out []string
	for _, name := range sortedKeys(builtins) {
		b, m := builtins[name], mods[name]
		if b.compile() != nil { // cannot happen: the built-in modules compile (tested)
			continue
		}
		if b.DefaultPort() == m.DefaultPort() && slices.Equal(b.QueryPortOffsets(), m.QueryPortOffsets()) {
			continue
		}
		where := file
		if q, ok := p.modules[name]; ok {
			where = fmt.Sprintf("%s:%d:%d", file, q.line, q.col)
		}
		out = append(out, fmt.Sprintf("%s: module %q replaces the built-in module %q (port %d, port_offsets %v) and uses port %d, port_offsets %v: "+
			"set port and port_offsets to keep the built-in's, or name the module otherwise", where, name, name,
			b.DefaultPort(), b.QueryPortOffsets(), m.DefaultPort(), m.QueryPortOffsets()))
	}
	return out
}

func sortedKeys(m map[string]*Module) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
