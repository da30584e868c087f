package steamtest

import (
	"bytes"
	"net/netip"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// DefaultChallenge is a Server's challenge until it is given another.
var DefaultChallenge = []byte{0x11, 0x22, 0x33, 0x44}

// Server is a scripted server of the family (a2s, goldsrc): it answers each
// query with the given datagrams, a nil list meaning silence. A2S_PLAYER and
// A2S_RULES get an S2C_CHALLENGE first unless NoChallenge is set or there is
// nothing to answer them with.
type Server struct {
	Info          [][]byte // A2S_INFO
	InfoChallenge bool     // A2S_INFO needs the challenge (servers since 2020)
	Players       [][]byte // A2S_PLAYER
	Rules         [][]byte // A2S_RULES
	NoChallenge   bool
	// Legacy: the challenge comes only from A2S_SERVERQUERY_GETCHALLENGE (0x57),
	// and every request without it goes unanswered (Fuel of War's era).
	Legacy bool
	// DropWrong ignores an A2S_INFO carrying a challenge other than the
	// server's (the plain request is still answered).
	DropWrong bool
	DropFirst bool // ignore the first datagram of each kind (retries)
	// GoldSrc's text queries (WON era).
	Details, TextInfo, InfoString, TextPlayers, TextRules [][]byte
	Challenge                                             []byte // nil: DefaultChallenge (SetChallenge changes it)
	Quiet                                                 bool   // record no requests (benchmarks)

	mu   sync.Mutex
	seen map[string]int
	reqs [][]byte
}

// Start serves s on a loopback UDP port.
func (s *Server) Start(t testing.TB) netip.AddrPort { return prototest.UDP(t, s.Handle) }

// Handle answers one request datagram.
func (s *Server) Handle(req []byte) [][]byte {
	kind := Kind(req)
	n, ch := s.record(kind, req)
	if s.DropFirst && n == 1 {
		return nil
	}
	chal := [][]byte{append([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge}, ch...)}
	challenged := len(req) == 9 && bytes.Equal(req[5:], ch)
	answer := func(replies [][]byte) [][]byte {
		switch {
		case s.Legacy && !challenged:
			return nil
		case replies != nil && !s.NoChallenge && !challenged:
			return chal
		}
		return replies
	}
	switch kind {
	case "A2S_SERVERQUERY_GETCHALLENGE":
		if s.Legacy && len(req) == 5 {
			return chal
		}
	case "A2S_INFO":
		return s.info(req, ch, chal)
	case "A2S_PLAYER":
		return answer(s.Players)
	case "A2S_RULES":
		return answer(s.Rules)
	}
	return s.text(kind)
}

// text answers one of GoldSrc's text queries, by its word.
func (s *Server) text(kind string) [][]byte {
	switch kind {
	case "details":
		return s.Details
	case "info":
		return s.TextInfo
	case "infostring":
		return s.InfoString
	case "players":
		return s.TextPlayers
	case "rules":
		return s.TextRules
	}
	return nil
}

// record counts a request of kind (and keeps it unless Quiet): it returns how
// many of that kind came so far and the challenge now current.
func (s *Server) record(kind string, req []byte) (int, []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	s.seen[kind]++
	if !s.Quiet {
		s.reqs = append(s.reqs, req)
	}
	return s.seen[kind], s.current()
}

// info answers A2S_INFO: the reply, a challenge first when InfoChallenge asks
// for one, nothing to a request the server drops.
func (s *Server) info(req, ch []byte, chal [][]byte) [][]byte {
	carries := len(req) == len(steam.InfoRequest)+4
	right := carries && bytes.Equal(req[len(req)-4:], ch)
	switch {
	case !bytes.HasPrefix(req, steam.InfoRequest), s.Legacy && !right, s.DropWrong && carries && !right:
		return nil
	case s.InfoChallenge && !right:
		return chal
	}
	return s.Info
}

// Kind names a request datagram: A2S_INFO, A2S_PLAYER, A2S_RULES,
// A2S_SERVERQUERY_GETCHALLENGE or the text query's word.
func Kind(req []byte) string {
	if len(req) < 5 || !bytes.HasPrefix(req, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
		return "garbage"
	}
	switch req[4] {
	case 'T':
		return "A2S_INFO"
	case 'U':
		return "A2S_PLAYER"
	case 'V':
		return "A2S_RULES"
	case 'W':
		return "A2S_SERVERQUERY_GETCHALLENGE"
	}
	word, _, _ := bytes.Cut(req[4:], []byte{0})
	word, _, _ = bytes.Cut(word, []byte{'\n'})
	return string(word)
}

// current returns the server's challenge (s.mu held).
func (s *Server) current() []byte {
	if s.Challenge == nil {
		return DefaultChallenge
	}
	return s.Challenge
}

// Sent returns the request datagrams received, in order.
func (s *Server) Sent() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.reqs...)
}

// Kinds returns the kinds of request received, in order.
func (s *Server) Kinds() []string {
	var out []string
	for _, r := range s.Sent() {
		out = append(out, Kind(r))
	}
	return out
}

// Count returns how many requests of a kind came.
func (s *Server) Count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[kind]
}

// SetChallenge, Current, Requests and InfoRequests serve CacheRun.
func (s *Server) SetChallenge(ch []byte) {
	s.mu.Lock()
	s.Challenge = bytes.Clone(ch)
	s.mu.Unlock()
}

func (s *Server) Current() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.current())
}

func (s *Server) Requests() int { return len(s.Sent()) }

func (s *Server) InfoRequests() (out [][]byte) {
	for _, r := range s.Sent() {
		if Kind(r) == "A2S_INFO" {
			out = append(out, r)
		}
	}
	return out
}
