package gamespytest

import "sync"

// Recorder keeps the requests a fake server saw; a fake embeds it.
type Recorder struct {
	mu   sync.Mutex
	reqs [][]byte
}

// Record notes req.
func (r *Recorder) Record(req []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
}

// Requests is what the fake saw, in order.
func (r *Recorder) Requests() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs
}

// ChallengeReply is a GameSpy v3/v4 server's answer to the handshake req: its
// session echoed, and token.
func ChallengeReply(req []byte, token string) [][]byte {
	return [][]byte{append(append([]byte{0x09}, req[3:7]...), token+"\x00"...)}
}
