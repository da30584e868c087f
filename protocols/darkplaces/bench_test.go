package darkplaces

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_xonotic_teams.bin", "testdata/status_too_many_lines.bin")
}

// BenchmarkQuery is a full getstatus exchange over loopback (the fake has no
// flood block).
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, echoServer(b, `12 48 1 "^1Play^7er"`, `-3 0 2 "[BOT]x"`, `0 999 0 ""`))
}
