package savage2

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatSpeaksSavage1 pins why there is no qstat comparison here: quakestat's
// -sas sends Savage 1's query (header 9E 4C 23 00 00), which a Savage 2 server
// does not answer, so quakestat reports the server down.
func TestQstatSpeaksSavage1(t *testing.T) {
	prototest.NeedQstat(t)
	var (
		mu   sync.Mutex
		reqs [][]byte
	)
	full := prototest.VecFile(t, "full")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		mu.Lock()
		reqs = append(reqs, bytes.Clone(req))
		mu.Unlock()
		if bytes.Equal(req, request) {
			return [][]byte{full}
		}
		return nil
	})
	out := prototest.Qstat(t, "-json", "-timeout", "1", "-sas", addr.String())
	mu.Lock()
	defer mu.Unlock()
	if len(reqs) == 0 || !bytes.HasPrefix(reqs[0], []byte{0x9E, 0x4C, 0x23, 0, 0}) {
		t.Errorf("quakestat -sas sent %q, not the Savage 1 query", reqs)
	}
	if strings.Contains(string(out), "Newerth Front") {
		t.Errorf("quakestat -sas read a Savage 2 reply: %s", out)
	}
}
