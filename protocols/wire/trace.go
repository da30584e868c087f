package wire

import (
	"encoding/hex"
	"fmt"
	"io"
	"time"
)

// Direction of a recorded packet.
type Direction uint8

const (
	Sent Direction = iota
	Received
)

// Packet is one datagram or TCP segment as it crossed the socket.
type Packet struct {
	Dir  Direction
	At   time.Duration // since the trace started
	Data []byte        // the bytes kept: all of them, or a prefix past the byte budget
	Len  int           // the packet's real length
	Note string        // why a received packet was ignored, if it was
}

// Phase is one timed step of a query (resolve, challenge, info, players, rules...).
type Phase struct {
	Name     string
	Duration time.Duration
	Err      error
}

// Entry is one log line of a probe.
type Entry struct {
	At  time.Duration
	Msg string
}

// Trace records what one probe did: phases with their durations, every packet sent
// and received, and log lines. Recording costs a slice append: packets are kept by
// reference (callers never reuse a buffer they handed to the trace), and text is only
// formatted when the trace is written out. All methods accept a nil *Trace.
type Trace struct {
	Start    time.Time
	Packets  []Packet
	Phases   []Phase
	Entries  []Entry
	Attempts int // request sends, retries included
	// MaxPackets bounds what is kept; packets beyond it are counted in Dropped.
	MaxPackets int
	Dropped    int
	// waited is the time accepted replies spent in the socket after the kernel's
	// arrival time before the probe read them (see Waited).
	waited time.Duration
	// kept counts bytes referenced by Packets: past MaxTraceBytes only a copied
	// prefix of each packet is kept, so a trace held by the probe history stays
	// small whatever a server sends.
	kept int

	// Room for a typical probe's phases (resolve, challenge, info), packets (a
	// request and its reply) and log line in the Trace's own allocation, and no
	// more: a trace is kept by each of thousands of waiting probes (408 bytes).
	phaseBuf  [3]Phase
	packetBuf [2]Packet
	entryBuf  [1]Entry // a cached challenge's note
}

// MaxTraceBytes is the most packet data a trace keeps in full.
const MaxTraceBytes = 64 << 10

// truncatedPrefix is how much of a packet past the budget is kept.
const truncatedPrefix = 64

// NewTrace starts a trace now.
func NewTrace() *Trace {
	t := &Trace{Start: time.Now(), MaxPackets: 256}
	t.Phases, t.Packets, t.Entries = t.phaseBuf[:0], t.packetBuf[:0], t.entryBuf[:0]
	return t
}

func (t *Trace) packet(d Direction, b []byte, note string) {
	if t == nil {
		return
	}
	if t.MaxPackets > 0 && len(t.Packets) >= t.MaxPackets {
		t.Dropped++
		return
	}
	data := b
	if t.kept+len(b) > MaxTraceBytes {
		// A copy, not a sub-slice: a sub-slice would keep the whole buffer alive.
		data = append([]byte(nil), b[:min(len(b), truncatedPrefix)]...)
	}
	t.kept += len(data)
	t.Packets = append(t.Packets, Packet{Dir: d, At: time.Since(t.Start), Data: data, Len: len(b), Note: note})
}

// Sent records an outgoing packet. b must not be modified afterwards.
func (t *Trace) Sent(b []byte) { t.packet(Sent, b, "") }

// Received records an incoming packet. b must not be modified afterwards.
func (t *Trace) Received(b []byte) { t.packet(Received, b, "") }

// Ignore notes why the last received packet was not used.
func (t *Trace) Ignore(why string) {
	if t == nil || len(t.Packets) == 0 {
		return
	}
	if p := &t.Packets[len(t.Packets)-1]; p.Dir == Received {
		p.Note = why
	}
}

// PhaseStart marks the start of a phase; pass it to End.
type PhaseStart struct {
	name   string
	start  time.Time
	waited time.Duration
}

// Begin starts timing a phase.
func (t *Trace) Begin(name string) PhaseStart {
	p := PhaseStart{name: name, start: time.Now()}
	if t != nil {
		p.waited = t.waited
	}
	return p
}

// End records a phase that started at p, with its error (nil on success). Its
// duration leaves out the time its replies waited to be read (Waited).
func (t *Trace) End(p PhaseStart, err error) {
	if t == nil {
		return
	}
	d := time.Since(p.start)
	d -= min(t.waited-p.waited, d)
	t.Phases = append(t.Phases, Phase{Name: p.name, Duration: d, Err: err})
}

// Waited records that an accepted reply arrived d before it was read: on a busy
// exporter a reply waits for a CPU after the kernel stamped its arrival, and that
// wait is the exporter's, not the server's latency. Phases and the probe's
// duration leave it out. A negative d (the wall clock stepped) counts as none.
func (t *Trace) Waited(d time.Duration) {
	if t == nil || d <= 0 {
		return
	}
	t.waited += d
}

// WaitedTotal is the time every accepted reply waited to be read (Waited).
func (t *Trace) WaitedTotal() time.Duration {
	if t == nil {
		return 0
	}
	return t.waited
}

// Log records a log line.
func (t *Trace) Log(msg string) {
	if t == nil {
		return
	}
	t.Entries = append(t.Entries, Entry{At: time.Since(t.Start), Msg: msg})
}

// Logf records a formatted log line.
func (t *Trace) Logf(format string, args ...any) {
	if t == nil {
		return
	}
	t.Log(fmt.Sprintf(format, args...))
}

// WriteTranscript writes every packet as a hex dump, the way users paste them into bug reports.
func (t *Trace) WriteTranscript(w io.Writer) {
	if t == nil {
		return
	}
	for i, p := range t.Packets {
		dir := "sent"
		if p.Dir == Received {
			dir = "received"
		}
		fmt.Fprintf(w, "#%d %s %d bytes at %s", i+1, dir, p.Len, p.At.Round(time.Microsecond))
		if len(p.Data) < p.Len {
			fmt.Fprintf(w, " (first %d kept)", len(p.Data))
		}
		if p.Note != "" {
			fmt.Fprintf(w, " (ignored: %s)", p.Note)
		}
		fmt.Fprintln(w)
		d := hex.Dumper(w)
		d.Write(p.Data)
		d.Close()
	}
	if t.Dropped > 0 {
		fmt.Fprintf(w, "(%d more packets not kept)\n", t.Dropped)
	}
}

// Reset clears t for reuse (benchmarks reuse one trace).
func (t *Trace) Reset() {
	entries := t.Entries[:0]
	*t = Trace{Start: time.Now(), MaxPackets: 256, Entries: entries}
	t.Phases, t.Packets, t.Entries = t.phaseBuf[:0], t.packetBuf[:0], t.entryBuf[:0]
}
