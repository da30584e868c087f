package discord

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "widget_capped.json"), prototest.Decoded(decode, func(w *widgetJSON) *protocols.Result { return w.result(true) }).Err)
}
