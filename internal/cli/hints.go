package cli

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

// maxHintNames bounds the games or modules one hint lists.
const maxHintNames = 5

// silentHints says what to try when a server did not answer (or its port was
// closed): many games answer queries on another port than the one players join,
// and a port often belongs to another protocol than the module's.
func silentHints(cfg *config.Config, module, target, reason string) []string {
	if reason != "timeout" && reason != "refused" {
		return nil
	}
	mod, ok := cfg.Modules[module]
	if !ok {
		return nil
	}
	port := targetPort(target)
	if port == 0 {
		port = int(mod.DefaultPort())
	}
	if mod.Protocol == "auto" {
		return []string{fmt.Sprintf("none of the protocols port %d suggests answered: give the server's query port (often not the port players join), or name its module with -m (see /modules)", port)}
	}
	var hints []string
	if offs := mod.QueryPortOffsets(); !slices.Equal(offs, []int{0}) {
		hints = append(hints, fmt.Sprintf("module %s takes the game port and queried port %s (%d + offsets %v); give the game port, not the query port", module, queried(port, offs), port, offs))
	}
	games, others := portOwners(module, mod.Protocol, port)
	if len(games) > 0 {
		hints = append(hints, fmt.Sprintf("port %d is the game port of %s: the game's module queries its query port (-m %s)", port, capList(games), strings.Fields(games[0])[0]))
	}
	if len(others) > 0 {
		hints = append(hints, fmt.Sprintf("port %d is also a port of %s: try -m %s, or -m auto to try them all at once", port, capList(others), others[0]))
	}
	if len(hints) == 0 {
		hints = append(hints, fmt.Sprintf("nothing answered on port %d: if players join on it, the query port may differ (see the game catalog in the README or on /modules), or try -m auto", port))
	}
	return hints
}

// portOwners lists the catalog games whose game port is port and whose query port
// lies elsewhere, and the other protocols that use port.
func portOwners(module, protocol string, port int) (games, others []string) {
	for _, g := range catalog.Games {
		if g.Module == module {
			continue
		}
		if int(g.Port) == port && slices.ContainsFunc(g.Offsets, func(o int) bool { return o != 0 }) {
			games = append(games, fmt.Sprintf("%s (query port %s)", g.Module, queried(port, g.Offsets)))
		}
		if g.Protocol != protocol && (int(g.Port) == port || slices.ContainsFunc(g.Offsets, func(o int) bool { return int(g.Port)+o == port })) {
			others = appendNew(others, g.Protocol)
		}
	}
	for _, p := range registry.All() {
		if p.Name != protocol && !p.OffTarget && (int(p.DefaultPort) == port || int(p.DefaultPort)+p.PortOffset == port) {
			others = appendNew(others, p.Name)
		}
	}
	return games, others
}

// targetPort is the port a target names, 0 without one.
func targetPort(target string) int {
	_, p, err := net.SplitHostPort(target)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return n
}

func queried(port int, offsets []int) string {
	var s []string
	for _, o := range offsets {
		s = append(s, strconv.Itoa(port+o))
	}
	return strings.Join(s, " or ")
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func capList(names []string) string {
	if len(names) > maxHintNames {
		return strings.Join(names[:maxHintNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxHintNames)
	}
	return strings.Join(names, ", ")
}
