package bedrock

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/sandertv/go-raknet"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// realPeer starts a go-raknet listener (the RakNet implementation of the Go
// Bedrock servers and proxies: Dragonfly, gophertunnel) on loopback, answering
// Unconnected Pings with pongData.
func realPeer(t *testing.T, pongData string) *raknet.Listener {
	t.Helper()
	l, err := raknet.ListenConfig{BlockDuration: -1}.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	l.PongData([]byte(pongData))
	return l
}

// TestRealRakNet queries a real RakNet implementation: it must accept our ping
// (it answers only a well-formed one, echoing its time) and we must read its pong.
func TestRealRakNet(t *testing.T) {
	l := realPeer(t, "MCPE;§l§6Real §fRakNet;766;1.21.50;7;40;"+
		"9876543210987654321;§aSurvival Island;Survival;1;19132;19133;")
	addr := l.Addr().(*net.UDPAddr).AddrPort()
	tr := wire.NewTrace()
	res, err := newQuerier(t, protocols.Settings{Retries: 1}).Query(prototest.Context(t, 5*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Real RakNet" || res.Map != "Survival Island" || res.Version != "1.21.50" {
		t.Errorf("name/map/version = %q %q %q", res.Name, res.Map, res.Version)
	}
	if res.Players != protocols.Known(7) || res.MaxPlayers != protocols.Known(40) {
		t.Errorf("players %+v / %+v", res.Players, res.MaxPlayers)
	}
	prototest.CheckInfoHas(t, &protocols.Result{Info: res.InfoKV()}, map[string]string{
		"raknet_guid": strconv.FormatUint(uint64(l.ID()), 10), // the pong's server GUID is the listener's id
		"edition":     "MCPE", "protocol": "766", "server_id": "9876543210987654321",
		"gamemode": "Survival", "gamemode_numeric": "1", "port_v4": "19132", "port_v6": "19133",
	})
	if len(tr.Phases) != 1 || tr.Phases[0].Err != nil {
		t.Errorf("phases %+v", tr.Phases)
	}
}

// A RakNet server without pong data (not a Minecraft server) answers with an
// empty string: a clear malformed error, not a timeout.
func TestRealRakNetNoPongData(t *testing.T) {
	l := realPeer(t, "")
	_, err := newQuerier(t, protocols.Settings{}).Query(prototest.Context(t, 5*time.Second), protocols.At(l.Addr().(*net.UDPAddr).AddrPort()), nil)
	if wire.Reason(err) != "malformed" {
		t.Errorf("err = %v, want malformed", err)
	}
}

// The other way round: go-raknet's client pings the fake server of
// query_test.go, which must take its ping for one and answer a pong it reads.
func TestRealRakNetClient(t *testing.T) {
	addr := prototest.UDP(t, echo(bdsID))
	data, err := raknet.PingContext(prototest.Context(t, 5*time.Second), addr.String())
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != bdsID {
		t.Errorf("pong data = %q, want %q", data, bdsID)
	}
}
