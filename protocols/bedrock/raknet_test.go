package bedrock

import (
	"fmt"
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
	prototest.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	l.PongData([]byte(pongData))
	return l
}

// TestRealRakNet queries a real RakNet implementation: it must accept our ping
// (it answers only a well-formed one, echoing its time) and we must read its pong.
func TestRealRakNet(t *testing.T) {
	l := realPeer(t, "MCPE;§l§6Real §fRakNet;766;1.21.50;7;40;"+
		"9876543210987654321;§aSurvival Island;Survival;1;19132;19133;")
	res, tr, err := prototest.QueryNew(t, Protocol, l.Addr().(*net.UDPAddr).AddrPort(), protocols.Settings{Retries: 1}, 5*time.Second)
	if err != nil || fmt.Sprintf("%s/%s/%s/%+v/%+v", res.Name, res.Map, res.Version, res.Players, res.MaxPlayers) != "Real RakNet/Survival Island/1.21.50/{Value:7 Known:true}/{Value:40 Known:true}" {
		t.Fatalf("%v %+v", err, res)
	}
	prototest.CheckInfoHas(t, &protocols.Result{Info: res.InfoKV()}, map[string]string{
		"raknet_guid": strconv.FormatUint(uint64(l.ID()), 10), // the pong's server GUID is the listener's id
		"edition":     "MCPE", "protocol": "766", "server_id": "9876543210987654321",
		"gamemode": "Survival", "gamemode_numeric": "1", "port_v4": "19132", "port_v6": "19133",
	})
	if prototest.PhaseResults(tr) != "info:true" {
		t.Errorf("phases %s", prototest.PhaseResults(tr))
	}
}

// A RakNet server without pong data (not a Minecraft server) answers with an
// empty string: a clear malformed error, not a timeout.
func TestRealRakNetNoPongData(t *testing.T) {
	l := realPeer(t, "")
	_, _, err := prototest.QueryNew(t, Protocol, l.Addr().(*net.UDPAddr).AddrPort(), protocols.Settings{}, 5*time.Second)
	if wire.Reason(err) != "malformed" {
		t.Errorf("err = %v, want malformed", err)
	}
}

// The other way round: go-raknet's client pings the fake server of
// query_test.go, which must take its ping for one and answer a pong it reads.
func TestRealRakNetClient(t *testing.T) {
	addr := prototest.UDP(t, echo(bdsID))
	data, err := raknet.PingContext(prototest.Context(t, 5*time.Second), addr.String())
	prototest.NoError(t, err)
	if string(data) != bdsID {
		t.Errorf("pong data = %q, want %q", data, bdsID)
	}
}
