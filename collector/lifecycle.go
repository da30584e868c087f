package collector

import (
	"math"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// addStartTimes turns the spans the server reported (uptime, time on map) into
// start timestamps: the end of the query, when the reply was read, less the span.
// Whole seconds: servers report seconds, and the fraction would only be the
// probe's latency, making every probe a new value.
func addStartTimes(f *families, o *Outcome, r *protocols.Result) {
	if !r.Uptime.Known && !r.MapTime.Known {
		return
	}
	reply := o.When.Add(o.Duration)
	if r.MapTime.Known {
		f.add(mapStartTime, startOf(reply, r.MapTime.D))
	}
	if r.Uptime.Known {
		f.add(startTime, startOf(reply, r.Uptime.D))
	}
}

func startOf(reply time.Time, d time.Duration) float64 {
	return math.Round(float64(reply.Add(-d).UnixNano()) / 1e9)
}
