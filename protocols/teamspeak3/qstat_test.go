package teamspeak3

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -ts3` (the
// voice port as its port= argument) and with the Querier, one after the other,
// and compares players and max (qstat subtracts query clients too). qstat 2.17
// garbles names with escapes in them (its in-place replacement overlaps: "Test\s[EU]"
// comes out "Test [U]]"), so names are compared on a server whose name has none.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	plain := bytes.Replace(transcript(t, "ok_default"),
		[]byte(`virtualserver_name=Gameserver\sExporter\sTest\s[EU]`), []byte("virtualserver_name=Plain_[EU]"), 1)
	for name, out := range map[string][]byte{
		"ok_default":          transcript(t, "ok_default"),
		"ok_password_escapes": transcript(t, "ok_password_escapes"),
		"ok_no_query_count":   transcript(t, "ok_no_query_count"),
		"plain_name":          plain,
	} {
		t.Run(name, func(t *testing.T) {
			f := serve(t, out)
			qs := prototest.QstatJSON(t, fmt.Sprintf("-ts3,port=%d", voice.Port()), f.addr)
			if cmds := f.commands(t); len(cmds) < 2 || cmds[0] != "use port=9987" || cmds[1] != "serverinfo" {
				t.Errorf("qstat sent %q", cmds)
			}
			res, _ := prototest.QueryOK(t, Protocol, voice, withQueryPort(f.addr.Port()), 2*time.Second)
			if qs.Status != "online" || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %d/%d", qs, res.Players.Value, res.MaxPlayers.Value)
			}
			if name == "plain_name" && (qs.Name != res.Name || res.Name != "Plain_[EU]") {
				t.Errorf("qstat name %q, querier %q", qs.Name, res.Name)
			}
		})
	}
}
