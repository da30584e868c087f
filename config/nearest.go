package config

import (
	"fmt"
	"slices"
	"strings"
)

// Nearest lists up to n of known nearest to name, nearest first: a name that
// differs only in case (alone), else those by edit distance (case ignored, a
// prefix counting as one edit) within one of the best. It is how an unknown module is answered: a few names to
// try, not all of them.
func Nearest(name string, known []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	key := strings.ToLower(name)
	limit := len(key)/3 + 2 // stricter than suggest: several names are offered, each must be close
	var cs []cand
	for _, k := range known {
		lk := strings.ToLower(k)
		d := editDistance(key, lk)
		switch {
		case k == name:
			continue
		case lk == key:
			d = -1 // case only: first
		case len(key) >= 3 && strings.HasPrefix(lk, key):
			d = min(d, 1) // "minecraft" for "minecr"
		}
		if d < limit {
			cs = append(cs, cand{k, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cs {
		// Only the closest ones: a name that differs in case alone, or those
		// within one edit of the best.
		if len(out) == n || (len(out) > 0 && (cs[0].d < 0 || c.d > cs[0].d+1)) {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// UnknownModule is the message for a module name the config lacks: the nearest
// names, and where the whole list is, instead of every name.
func (c *Config) UnknownModule(name string) string {
	names := c.Names()
	msg := fmt.Sprintf("unknown module %q", name)
	if near := Nearest(name, names, 3); len(near) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", quoteOr(near))
	}
	return msg + fmt.Sprintf("; %d known (listed on /modules)", len(names))
}

func quoteOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// MissingModule is the message for a probe without a module parameter: module
// auto (which finds the protocol) and a few modules whose game port is the
// target's (port, 0 when the target names none) and that ask the target,
// protocols' own first, instead of every name.
func (c *Config) MissingModule(port uint16) string {
	var near []string
	if _, ok := c.Modules["auto"]; ok {
		near = append(near, "auto")
	}
	if port != 0 {
		var own, games []string
		for _, n := range c.Names() {
			switch m := c.Modules[n]; {
			case n == "auto" || m.DefaultPort() != port || m.Descriptor().OffTarget: // the target never answers those
			case m.Protocol == n:
				own = append(own, n)
			default:
				games = append(games, n)
			}
		}
		near = append(near, append(own, games...)[:min(3, len(own)+len(games))]...)
	}
	msg := "module parameter is missing: add module=NAME"
	if len(near) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", quoteOr(near))
	}
	return msg + fmt.Sprintf("; %d known (listed on /modules)", len(c.Names()))
}
