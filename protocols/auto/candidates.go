package auto

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
)

// maxCandidates bounds the protocols tried for one target: each holds a socket
// for up to the whole deadline, and each sends the target a request.
const maxCandidates = 6

// defaults are tried when the port suggests nothing: the protocols most often
// found on ports of their own choosing, each on the target's port.
var defaults = []string{"a2s", "quake3", "minecraft", "gamespy4", "gamespy2", "gamespy1"}

// defaultWhy is the reason of the defaults on a port that suggests nothing.
const defaultWhy = "tried on any port"

// candidate is one protocol to try and the port to send it to.
type candidate struct {
	proto string
	port  uint16
	why   string // the first reason it was chosen, for the debug log
	votes int    // how many protocols and games point at it
	later bool   // of the second wave (common): sent only when the first has no answer
}

func (c candidate) String() string { return fmt.Sprintf("%s on port %d (%s)", c.proto, c.port, c.why) }

// choose returns the candidates for a target on port: protocols whose default
// port it is (at their query port), catalog games whose game port it is (at each
// of their query ports) or whose query port it is. The most pointed at come first,
// then in the order found; at most maxCandidates. protos are the protocols that
// may be chosen (by name order), games the catalog.
func choose(port uint16, protos []protocols.Protocol, games []catalog.Game) []candidate {
	usable := map[string]bool{}
	for _, p := range protos {
		usable[p.Name] = true
	}
	var out []candidate
	add := func(proto string, qport int, why string) {
		if !usable[proto] || qport <= 0 || qport > 65535 {
			return
		}
		for i := range out {
			if out[i].proto == proto && out[i].port == uint16(qport) {
				out[i].votes++
				return
			}
		}
		out = append(out, candidate{proto: proto, port: uint16(qport), why: why, votes: 1})
	}
	p := int(port)
	for _, pr := range protos {
		switch {
		case int(pr.DefaultPort) == p:
			add(pr.Name, p+pr.PortOffset, "its default port")
		case pr.PortOffset != 0 && int(pr.DefaultPort)+pr.PortOffset == p:
			add(pr.Name, p, "its default query port")
		}
	}
	for _, g := range games {
		if int(g.Port) == p {
			for _, off := range g.Offsets {
				why := g.Module + "'s game port"
				if off != 0 {
					why = fmt.Sprintf("%s's query port for game port %d", g.Module, p)
				}
				add(g.Protocol, p+off, why)
			}
			continue
		}
		for _, off := range g.Offsets {
			if int(g.Port)+off == p {
				add(g.Protocol, p, g.Module+"'s query port")
			}
		}
	}
	fallback(out, add, p, protos)
	slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(b.votes, a.votes) })
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out
}

// fallback adds the default protocols on a port that suggests none, or the
// module's own when it allows none of the defaults.
func fallback(out []candidate, add func(string, int, string), p int, protos []protocols.Protocol) {
	if len(out) > 0 {
		return
	}
	n := 0
	for _, name := range defaults {
		if slices.ContainsFunc(protos, func(pr protocols.Protocol) bool { return pr.Name == name }) {
			n++
		}
		add(name, p, defaultWhy)
	}
	if n > 0 {
		return
	}
	for _, pr := range protos { // a module limited to protocols outside the defaults
		add(pr.Name, p+pr.PortOffset, "allowed by the module")
	}
}

// common returns the second wave for a port that suggested first: the default
// protocols on the target's port that first lacks (at most maxCandidates). A
// server on a port of another protocol's (a Source server on 27960) is still
// found, and a server that answers the first wave is sent nothing more.
func common(first []candidate, port uint16, protos []protocols.Protocol) []candidate {
	var out []candidate
	for _, name := range defaults {
		if len(out) == maxCandidates {
			break
		}
		usable := slices.ContainsFunc(protos, func(p protocols.Protocol) bool { return p.Name == name })
		tried := slices.ContainsFunc(first, func(c candidate) bool { return c.proto == name && c.port == port })
		if usable && !tried {
			out = append(out, candidate{proto: name, port: port, why: "a common protocol, when the port's do not answer", votes: 0, later: true})
		}
	}
	return out
}
