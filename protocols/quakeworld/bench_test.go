package quakeworld

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_opt23_spectators.bin", "testdata/status_too_many_lines.bin")
}

// BenchmarkQuery is a full status exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, idtechtest.Always(statusReply(`3 12 5 48 "Player" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`))))
}
