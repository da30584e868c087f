// Package cli holds the exporter's `query` subcommand: probes through the same
// collector path as /probe, printed for a person (or as JSON).
package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

// Query is `gameserver_exporter query`: probes through the same code path
// as /probe, printed for a person (or as JSON): the qstat-like tool operators reach
// for when an alert fires.
type Query struct {
	cmd     *kingpin.CmdClause
	module  *string
	targets *[]string
	file    *string
	timeout *string
	json    *bool
	players *bool
	rules   *bool
	debug   *bool
	metrics *bool
}

// queryParallel bounds the probes in flight: a file of a thousand targets must not
// open a thousand sockets at once (auto opens several per target).
const queryParallel = 32

// AddQuery adds the query command and its flags to app.
func AddQuery(app *kingpin.Application) *Query {
	c := &Query{cmd: app.Command("query", "Probe game servers and print what they report.")}
	c.module = c.cmd.Flag("module", "Module to probe with; auto tries the protocols the port suggests.").Short('m').Default("auto").String()
	c.file = c.cmd.Flag("file", "Read targets from FILE (- for stdin), one a line: `target` or `module target`; # starts a comment.").Short('f').PlaceHolder("FILE").String()
	c.timeout = c.cmd.Flag("timeout", "Probe timeout: a duration (2s, 500ms, 1m) or seconds (2, 0.5). Default: the module's.").Default("").String()
	c.json = c.cmd.Flag("json", "Print each result as JSON.").Bool()
	c.players = c.cmd.Flag("players", "Also query the player list.").Bool()
	c.rules = c.cmd.Flag("rules", "Also query rules / server variables.").Bool()
	c.debug = c.cmd.Flag("debug", "Print the debug output: log lines, decoded reply, metrics and a hex dump of every packet.").Bool()
	c.metrics = c.cmd.Flag("metrics", "Print the metrics /probe would return.").Bool()
	c.targets = c.cmd.Arg("target", "host, host:port or [v6addr]:port; several are probed at once").Strings()
	return c
}

// queryJob is one target to probe and, once done, what came of it.
type queryJob struct {
	module, target string
	outcome        *collector.Outcome
	err            error
	done           chan struct{}
}

// FullCommand is the command's name as kingpin's Parse returns it.
func (c *Query) FullCommand() string { return c.cmd.FullCommand() }

// Run probes the parsed targets and prints the results; it returns the exit code.
func (c *Query) Run(configFile string, stdout, stderr io.Writer) int {
	timeout, err := parseQueryTimeout(*c.timeout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	jobs := make([]*queryJob, 0, len(*c.targets))
	for _, t := range *c.targets {
		jobs = append(jobs, &queryJob{module: *c.module, target: t})
	}
	if *c.file != "" {
		fromFile, err := readTargets(*c.file, *c.module)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		jobs = append(jobs, fromFile...)
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stderr, "no target: name targets as arguments or list them in a file with -f FILE")
		return 2
	}
	cfg, err := config.Load(configFile)
	if err != nil {
		fmt.Fprintln(stderr, "loading config:", err)
		return 2
	}
	if err := c.override(cfg, jobs, timeout); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	sc := config.NewSafeConfig(configFile)
	sc.Set(cfg)
	r := &collector.Runner{
		Config:  sc,
		Logger:  slog.New(slog.DiscardHandler),
		Metrics: collector.NewMetrics(prometheus.NewRegistry()),
	}
	slots := make(chan struct{}, queryParallel)
	for _, j := range jobs {
		j.done = make(chan struct{})
		go func() {
			slots <- struct{}{}
			defer func() { <-slots; close(j.done) }()
			j.outcome, j.err = r.Run(context.Background(), j.module, j.target, "")
		}()
	}
	code := 0
	for _, j := range jobs { // in input order, each as soon as it and those before are done
		<-j.done
		if j.err != nil {
			fmt.Fprintf(stderr, "%s (%s): %v\n", j.target, j.module, j.err)
			code = 2
			continue
		}
		c.print(stdout, cfg, j, len(jobs) > 1)
		if !j.outcome.Success() {
			code = max(code, 1)
		}
	}
	return code
}

// override applies --players, --rules and --timeout to every module the jobs use,
// on copies: the config's own modules stay as loaded.
func (c *Query) override(cfg *config.Config, jobs []*queryJob, timeout time.Duration) error {
	if !*c.players && !*c.rules && timeout == 0 {
		return nil
	}
	done := map[string]bool{}
	for _, j := range jobs {
		m, ok := cfg.Modules[j.module]
		if !ok || done[j.module] {
			continue // an unknown module is reported with its target
		}
		done[j.module] = true
		mod := *m
		mod.Players = mod.Players || *c.players
		mod.Rules = mod.Rules || *c.rules
		if timeout > 0 {
			mod.Timeout = model.Duration(timeout)
		}
		if err := mod.Compile(m.Descriptor()); err != nil {
			return fmt.Errorf("module %s: %w", j.module, err)
		}
		cfg.Modules[j.module] = &mod
	}
	return nil
}

// parseQueryTimeout reads --timeout: a Go or Prometheus duration, or plain seconds.
func parseQueryTimeout(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(secs) || math.IsInf(secs, 0) || secs > config.MaxTimeout.Seconds() {
			secs = -1
		}
		d = time.Duration(secs * float64(time.Second))
	} else if gd, err := time.ParseDuration(s); err == nil {
		d = gd
	} else if md, err := model.ParseDuration(s); err == nil {
		d = time.Duration(md)
	} else {
		return 0, fmt.Errorf("invalid --timeout %q: want a duration (2s, 500ms, 1m) or a number of seconds", s)
	}
	if d < 10*time.Millisecond || d > config.MaxTimeout {
		return 0, fmt.Errorf("invalid --timeout %q: want between 10ms and %s", s, model.Duration(config.MaxTimeout))
	}
	return d, nil
}

// readTargets reads a targets file: per line `target` or `module target`, blank
// lines and # comments skipped. Lines without a module get module.
func readTargets(path, module string) ([]*queryJob, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var jobs []*queryJob
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		switch f := strings.Fields(line); len(f) {
		case 0:
		case 1:
			jobs = append(jobs, &queryJob{module: module, target: f[0]})
		case 2:
			jobs = append(jobs, &queryJob{module: f[0], target: f[1]})
		default:
			return nil, fmt.Errorf("%s:%d: want `target` or `module target`, got %d words", path, n, len(f))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return jobs, nil
}

func (c *Query) print(w io.Writer, cfg *config.Config, j *queryJob, several bool) {
	o := j.outcome
	// What servers sent is printed to a terminal: no control character or bidi
	// override of theirs gets there unescaped (JSON included: its \u escapes).
	w = collector.PrintableWriter(w)
	switch {
	case *c.debug:
		if several {
			fmt.Fprintf(w, "==> %s (%s) <==\n", j.target, j.module)
		}
		web.WriteDebug(w, o)
	case *c.json:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(web.NewReport(o))
	case *c.metrics:
		if several {
			fmt.Fprintf(w, "# %s (%s)\n", j.target, j.module)
		}
		w.Write(collector.Append(nil, o, false))
	default:
		r := web.NewReport(o)
		printReport(w, r)
		if !r.Success {
			for _, h := range silentHints(cfg, j.module, j.target, r.Reason) {
				fmt.Fprintln(w, "  hint:", h)
			}
		}
	}
}

func printReport(w io.Writer, r web.Report) {
	if !r.Success {
		// The error starts with its reason ("refused: ..."): say it once.
		msg := strings.TrimPrefix(r.Error, r.Reason+": ")
		if msg == "" || msg == r.Reason {
			fmt.Fprintf(w, "%s (%s): DOWN after %.3fs: %s\n", r.Target, r.Module, r.Duration, r.Reason)
		} else {
			fmt.Fprintf(w, "%s (%s): DOWN after %.3fs: %s: %s\n", r.Target, r.Module, r.Duration, r.Reason, collector.Printable(msg))
		}
		return
	}
	how := r.Module
	if r.Protocol != "" && r.Protocol != r.Module {
		how = fmt.Sprintf("%s: %s on port %d", r.Module, r.Protocol, r.QueryPort)
	}
	fmt.Fprintf(w, "%s (%s): up, answered in %.3fs\n", r.Target, how, r.Duration)
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-9s %s\n", k+":", collector.Printable(v))
		}
	}
	row("name", r.Name)
	row("map", r.Map)
	row("game", r.Game)
	row("version", r.Version)
	row("state", r.State)
	if r.Players != nil || r.MaxPlayers != nil {
		p := fmt.Sprintf("%s/%s", opt(r.Players), opt(r.MaxPlayers))
		if r.Bots != nil {
			p += fmt.Sprintf(" (+%d bots)", *r.Bots)
		}
		row("players", p)
	}
	if r.Password != nil {
		row("password", fmt.Sprint(*r.Password))
	}
	for _, ph := range r.Phases {
		if ph.Error != "" {
			row("failed", ph.Name+": "+ph.Error)
		}
	}
	for _, p := range r.PlayerList {
		var extra []string
		if p.Score != nil {
			extra = append(extra, fmt.Sprintf("score %d", *p.Score))
		}
		if p.Ping != nil {
			extra = append(extra, fmt.Sprintf("ping %dms", *p.Ping))
		}
		if p.Duration != nil {
			extra = append(extra, fmt.Sprintf("%.0fs", *p.Duration))
		}
		if p.Team != "" {
			extra = append(extra, "team "+collector.Printable(p.Team))
		}
		fmt.Fprintf(w, "    %-24q %s\n", p.Name, strings.Join(extra, ", "))
	}
	for _, kv := range r.Rules {
		fmt.Fprintf(w, "    %s = %s\n", collector.Printable(kv[0]), collector.Printable(kv[1]))
	}
}

func opt(v *int64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprint(*v)
}
