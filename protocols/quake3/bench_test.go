package quake3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(true, true) },
		"testdata/status_latin1_colours.bin", "testdata/status_too_many_lines.bin")
}

func BenchmarkDecodeInfo(b *testing.B) {
	idtechtest.BenchDecode(b, decode, func(r *reply) { r.result(false, false) }, "testdata/info_ioq3.bin")
}

// BenchmarkQuery is a full getstatus exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, answer("", `\clients\3`, nil, `12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`)))
}
