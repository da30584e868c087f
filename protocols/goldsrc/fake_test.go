package goldsrc

import (
	"bytes"
	"net/netip"
	"sync"
	"testing"

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

	mu   sync.Mutex
	seen map[string]int
	log  []string
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
	f.mu.Unlock()
	if f.dropFirst && n == 1 {
		return nil
	}
	challenged := len(req) == 9 && bytes.Equal(req[5:], challenge)
	switch kind {
	case "A2S_INFO":
		if f.infoChallenge && !bytes.HasSuffix(req, challenge) {
			return [][]byte{challengeReply()}
		}
		return f.a2sInfo
	case "A2S_PLAYER":
		if f.players != nil && !f.noChallenge && !challenged {
			return [][]byte{challengeReply()}
		}
		return f.players
	case "A2S_RULES":
		if f.rules != nil && !f.noChallenge && !challenged {
			return [][]byte{challengeReply()}
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

func challengeReply() []byte { return append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41}, challenge...) }

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
