package nadeo

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestQueryForever: Nadeo servers have no bots; the player list counts everyone
// connected (spectators too, as qstat and gamedig count them). Players is the
// list's length, Bots stays unknown.
func TestQueryForever(t *testing.T) {
	f := newFake(t, "forever")
	res, tr := prototest.QueryOK(t, Protocol, f.start(t), prototest.Settings(true, ""), 2*time.Second)
	if res.Name != "Red Racing $ Club" || res.Map != "Green Hill" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(32) || len(res.PlayerList) != 3 || res.Version != "2.11.26" {
		t.Errorf("%+v", res)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
	want := "Authenticate GetServerName GetMaxPlayers GetVersion GetCurrentChallengeInfo GetPlayerList"
	if got := f.called(); got != want {
		t.Errorf("calls %s, want %s", got, want)
	}
	if len(tr.Phases) != 3 || tr.Phases[0].Name != "login" || tr.Phases[1].Name != "info" || tr.Phases[2].Name != "players" {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQueryManiaPlanetWithCallbacks(t *testing.T) {
	f := newFake(t, "maniaplanet")
	f.callbacks = 2
	f.login, f.password = "Admin", "s3cret"
	res, _ := prototest.QueryOK(t, Protocol, f.start(t), prototest.Settings(false, "login: Admin\npassword: s3cret\n"), 2*time.Second)
	if res.Map != "Storm Ärena" || res.Game != "SMStormElite@nadeolabs" || res.Players != protocols.Known(3) || res.PlayerList != nil {
		t.Errorf("%+v", res)
	}
	if f.called() != "Authenticate GetServerName GetMaxPlayers GetVersion GetCurrentMapInfo GetPlayerList" {
		t.Errorf("calls %v", f.calls)
	}
}

func TestQueryVersion1(t *testing.T) {
	f := newFake(t, "forever")
	f.version = 1
	res, _, err := prototest.QueryNew(t, Protocol, f.start(t), prototest.Settings(false, ""), 2*time.Second)
	if err != nil || res.Map != "Green Hill" {
		t.Errorf("%v %+v", err, res)
	}
}

func TestPasswordFile(t *testing.T) {
	f := newFake(t, "forever")
	f.password = "from-file"
	file := t.TempDir() + "/pw"
	prototest.WriteFile(t, file, "from-file\n")
	res, tr, err := prototest.QueryNew(t, Protocol, f.start(t), prototest.Settings(false, "password_file: "+file+"\n"), 2*time.Second)
	if err != nil || res.Name == "" {
		t.Fatalf("%v %+v", err, res)
	}
	prototest.NoSecrets(t, nil, tr, nil, "from-file")
	if !strings.Contains(prototest.Transcript(tr), "<string>&lt;secret&gt;</string>") {
		t.Error("the trace lacks the Authenticate call with the password masked")
	}
	q, _ := Protocol.New(prototest.Settings(false, "password: x\npassword_file: "+file+"\n"))
	if q != nil {
		t.Error("password and password_file both accepted")
	}
}

func TestQueryFailures(t *testing.T) {
	// A wrong password: the server's fault, said as a refused login.
	f := newFake(t, "forever")
	_, _, err := prototest.QueryNew(t, Protocol, f.start(t), prototest.Settings(false, "password: wrong\n"), 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "Password incorrect.") {
		t.Errorf("wrong password: %v", err)
	}
	// The player list broken: info stands, players is a phase error.
	f = newFake(t, "forever")
	f.answers["GetPlayerList"] = "err_players_not_array"
	res, _, err := prototest.QueryNew(t, Protocol, f.start(t), prototest.Settings(true, ""), 2*time.Second)
	if err != nil || res.Players.Known || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" {
		t.Errorf("broken players: %v %+v", err, res)
	}
	// A method the server does not know (the map call on the wrong game): a fault.
	f = newFake(t, "forever")
	delete(f.answers, "GetCurrentChallengeInfo")
	if _, _, err := prototest.QueryNew(t, Protocol, f.start(t), prototest.Settings(false, ""), 2*time.Second); !errors.Is(err, wire.ErrServer) {
		t.Errorf("unknown method: %v", err)
	}
	// Broken handshakes (no answer after them); answers, after a good one, with
	// a lying length, a huge length, another handle.
	for _, c := range []struct {
		name              string
		handshake, answer []byte
		want              string
	}{
		{"other handshake", hello("HTTP/1.1 40"), nil, "mismatch"},
		{"huge handshake", []byte{0xff, 0xff, 0xff, 0x7f}, nil, "malformed"},
		{"cut handshake", []byte{11, 0, 0, 0, 'G', 'B'}, nil, "truncated"},
		{"huge length", nil, frame(1<<30, 0x80000000, nil), "too_large"},
		{"zero length", nil, frame(0, 0x80000000, nil), "malformed"},
		{"other handle", nil, frame(5, 0x80000005, []byte("<a/>x")), "mismatch"},
		{"cut body", nil, frame(500, 0x80000000, []byte("<methodResponse>")), "truncated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := prototest.TCP(t, func(conn net.Conn) {
				if c.answer == nil {
					conn.Write(c.handshake)
					return
				}
				conn.Write(hello("GBXRemote 2"))
				conn.Read(make([]byte, 4096))
				conn.Write(c.answer)
			})
			if _, _, err := prototest.QueryNew(t, Protocol, addr, prototest.Settings(false, ""), 2*time.Second); wire.Reason(err) != c.want {
				t.Errorf("%v, want %s", err, c.want)
			}
		})
	}
	// A handshake, then silence: the deadline ends it.
	addr := prototest.TCP(t, func(conn net.Conn) {
		conn.Write(hello("GBXRemote 2"))
		conn.Read(make([]byte, 4096))
		conn.Read(make([]byte, 4096))
	})
	if _, _, err := prototest.QueryNew(t, Protocol, addr, prototest.Settings(false, ""), 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("silence after the handshake: %v", err)
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{Protocol: Protocol, Name: "nadeo", DefaultPort: 5000, Transport: "tcp"})
}

func TestQuerierHidesPassword(t *testing.T) {
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, prototest.Settings(false, "password: hunter2\n")), nil, nil, "hunter2")
}
