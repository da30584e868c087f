package collector

import (
	"math"
	"time"
)

// addStartTimes turns the spans the server reported (uptime, time on map) into
// start timestamps: the end of the query, when the reply was read, less the span.
// Whole seconds: servers report seconds, and the fraction would only be the
// probe's latency, making every probe a new value.
func addStartTimes(f *families, o *Outcome) {
	server, mapStart := o.StartTimes()
	if !mapStart.IsZero() {
		f.add(mapStartTime, wholeSeconds(mapStart))
	}
	if !server.IsZero() {
		f.add(startTime, wholeSeconds(server))
	}
}

func wholeSeconds(t time.Time) float64 {
	return math.Round(float64(t.UnixNano()) / 1e9)
}

// StartTimes returns when the server and its current map started, where its reply
// said when (Result.Started) or how long they have run: the time the reply was
// read (the end of the query) less that span; the zero Time where it did not say.
func (o *Outcome) StartTimes() (server, mapStart time.Time) {
	r := o.Result
	if o.Err != nil || r == nil {
		return time.Time{}, time.Time{}
	}
	reply := o.When.Add(o.Duration)
	if !r.Started.IsZero() {
		server = r.Started
	} else if r.Uptime.Known {
		server = reply.Add(-r.Uptime.D)
	}
	if r.MapTime.Known {
		mapStart = reply.Add(-r.MapTime.D)
	}
	return server, mapStart
}
