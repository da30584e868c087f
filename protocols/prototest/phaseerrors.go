package prototest

import (
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// PhaseErrorReasons is a result's phase errors as phase:reason (wire.Reason of
// each), comma-separated ("players:timeout"); "" when there are none.
func PhaseErrorReasons(res *protocols.Result) string { return strings.Join(phaseErrors(res), ",") }

// phaseErrors is a result's phase errors, each as phase:reason.
func phaseErrors(res *protocols.Result) []string {
	var s []string
	for _, pe := range res.PhaseErrors {
		s = append(s, pe.Phase+":"+wire.Reason(pe.Err))
	}
	return s
}
