package teamspeak2

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -ts2` (the
// voice port as its port= argument; qstat sends `si <port>` without `sel`) and
// with the Querier, and compares the name, players and max.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for name, set := range map[string]func(f *fake){
		"default": nil,
		"empty":   func(f *fake) { f.si = strings.Replace(f.si, "server_currentusers=3", "server_currentusers=0", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			if set != nil {
				set(f)
			}
			addr := f.start(t)
			qs := prototest.QstatJSON(t, fmt.Sprintf("-ts2,port=%d", voice.Port()), addr)
			if cmds := f.commands(); len(cmds) == 0 || cmds[0] != "si 8767" {
				t.Errorf("qstat sent %q", cmds)
			}
			res, _, err := probe(t, addr, voice, protocols.Settings{}, 2*time.Second)
			prototest.NoError(t, err)
			if qs.Status != "online" || qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %q %d/%d", qs, res.Name, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
