package goldsrc

import (
	"bytes"
	"net/netip"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fake is a scripted GoldSrc server. A nil reply list means silence for that query.
// A2S_PLAYER and A2S_RULES get an S2C_CHALLENGE first unless noChallenge is set.
type fake struct {
	a2sInfo       [][]byte // answer to A2S_INFO
	infoChallenge bool     // A2S_INFO needs a challenge first
	details       [][]byte // answers to the text words
	info          [][]byte
	infoString    [][]byte
	players       [][]byte // A2S_PLAYER
	rules         [][]byte // A2S_RULES
	textPlayers   [][]byte // "players"
	textRules     [][]byte // "rules"
	noChallenge   bool
	// dropFirst ignores the first datagram of each kind (exercises retries).
	dropFirst bool
	// dropWrong ignores an A2S_INFO carrying a challenge other than the server's
	// (instead of answering S2C_CHALLENGE, or the info when none is needed).
	dropWrong bool

	mu       sync.Mutex
	seen     map[string]int
	log      []string
	chal     []byte   // the server's challenge; nil: challenge (SetChallenge changes it)
	infoReqs [][]byte // the A2S_INFO datagrams received
}

var challenge = []byte{0x11, 0x22, 0x33, 0x44}

func (f *fake) start(t testing.TB) netip.AddrPort { return prototest.UDP(t, f.handle) }

func (f *fake) handle(req []byte) [][]byte {
	kind := classify(req)
	f.mu.Lock()
	if f.seen == nil {
		f.seen = map[string]int{}
	}
	f.seen[kind]++
	n := f.seen[kind]
	f.log = append(f.log, kind)
	if kind == "A2S_INFO" {
		f.infoReqs = append(f.infoReqs, req)
	}
	ch := f.challenge()
	f.mu.Unlock()
	if f.dropFirst && n == 1 {
		return nil
	}
	challenged := len(req) == 9 && bytes.Equal(req[5:], ch)
	switch kind {
	case "A2S_INFO":
		carries := len(req) == len(steam.InfoRequest)+4
		right := carries && bytes.Equal(req[len(req)-4:], ch)
		if f.dropWrong && carries && !right {
			return nil
		}
		if f.infoChallenge && !right {
			return [][]byte{challengeReplyWith(ch)}
		}
		return f.a2sInfo
	case "A2S_PLAYER":
		if f.players != nil && !f.noChallenge && !challenged {
			return [][]byte{challengeReplyWith(ch)}
		}
		return f.players
	case "A2S_RULES":
		if f.rules != nil && !f.noChallenge && !challenged {
			return [][]byte{challengeReplyWith(ch)}
		}
		return f.rules
	case "details":
		return f.details
	case "info":
		return f.info
	case "infostring":
		return f.infoString
	case "players":
		return f.textPlayers
	case "rules":
		return f.textRules
	}
	return nil
}

// requests returns the kinds of request received, in order.
func (f *fake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

func (f *fake) count(kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[kind]
}

// challenge returns the server's current challenge (f.mu held).
func (f *fake) challenge() []byte {
	if f.chal == nil {
		return challenge
	}
	return f.chal
}

// SetChallenge, Current, Requests and InfoRequests serve steamtest.CacheRun.
func (f *fake) SetChallenge(ch []byte) {
	f.mu.Lock()
	f.chal = ch
	f.mu.Unlock()
}

func (f *fake) Current() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.challenge()
}

func (f *fake) Requests() int { return len(f.requests()) }

func (f *fake) InfoRequests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.infoReqs...)
}

func challengeReply() []byte { return challengeReplyWith(challenge) }

func challengeReplyWith(ch []byte) []byte {
	return append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41}, ch...)
}

// classify names a request datagram.
func classify(req []byte) string {
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
	}
	word, _, _ := bytes.Cut(req[4:], []byte{0})
	word, _, _ = bytes.Cut(word, []byte{'\n'})
	return string(word)
}

func one(b []byte) [][]byte { return [][]byte{b} }
