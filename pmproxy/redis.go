package pmproxy

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/gopcp/gopcp/internal/lograte"
	"github.com/gopcp/gopcp/series"
	"github.com/gopcp/gopcp/series/resp"
)

// SeriesStore is the Redis servers pmproxy.conf names ([redis] servers,
// else [pmseries] servers) unless [redis] says "enabled = false"; nil
// then, or when none answers: /series/ then answers ping and refuses the
// rest with a JSON message, and /search/ refuses with one. As in PCP
// 6.0.3, whose series module connects to Redis by itself when nothing
// else did, [pmseries] enabled does not matter here.
func SeriesStore(ctx context.Context, conf Conf, logger *log.Logger) *series.Store {
	sc := series.Config(conf)
	servers := sc.Servers()
	if conf.Off("redis.enabled") || len(servers) == 0 {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := series.Connect(cctx, servers, sc.RedisOptions())
	if err != nil {
		logger.Printf("Info: Cannot connect to Redis: %s", redisWhy(err))
		return nil
	}
	if line := slotsLine(conf); line != "" {
		logger.Printf("Info: %s", line)
	}
	return series.NewStore(c)
}

// slotsLine is the line PCP's pmproxy logs once its own connection to
// Redis is up, "" when it makes none: it makes one when one of its
// switches is on ([pmproxy] redis.enabled, [pmseries], [pmsearch] or
// [discover] enabled), else only its series module connects, silently.
// Ours proxies no Redis commands and indexes no text, so it never adds
// PCP's ", command keys" or ", RediSearch".
func slotsLine(conf Conf) string {
	if !conf.On("pmproxy.redis.enabled") && !conf.On("pmseries.enabled") &&
		!conf.On("pmsearch.enabled") && !conf.On("discover.enabled") {
		return ""
	}
	if conf.On("pmseries.enabled") {
		return "Redis slots, schema version setup"
	}
	return "Redis slots setup"
}

// redisWhy is a failed connection to Redis in libpcp_web's words where
// it has them, else ours.
func redisWhy(err error) string {
	if why, ok := series.Unreachable(err, resp.DefaultTimeout); ok {
		return why
	}
	return err.Error()
}

// Discover follows the pmlogger archives under [discover] path (else
// PCP_ARCHIVE_DIR) into Redis, as PCP's pmproxy does when pmproxy.conf
// says "enabled = true" in both [discover] and [pmseries] and [redis] is
// not disabled (PCP's switches: exactly "true", unset is off). PCP's also
// follows archives with [pmsearch] enabled and RediSearch in Redis, but
// then only to index their help text for /search/, which this pmproxy
// does not do: without [pmseries] it follows nothing. trace, when not
// nil, hears what discovery does (PCP's pmproxy says it with -D
// discovery only); the log has only what fails, as PCP's. The returned
// function stops it and waits; nil when discovery is off.
func Discover(ctx context.Context, conf Conf, archiveDir string, logger *log.Logger, trace func(string, ...any)) func() {
	if !conf.On("discover.enabled") || !conf.On("pmseries.enabled") || conf.Off("redis.enabled") {
		return nil
	}
	if trace == nil {
		trace = func(string, ...any) {}
	}
	sc := series.Config(conf)
	servers := sc.Servers()
	if len(servers) == 0 {
		servers = []string{"localhost:6379"}
	}
	dir := archiveDir
	if p := conf["discover.path"]; p != "" {
		dir = p
	}
	if _, err := os.Stat(dir); err != nil {
		// PCP's discovery gives up on such a directory without a word
		trace("pmproxy: discover: %v", err)
		return nil
	}
	d := series.NewDiscoverer(series.DiscoverOptions{
		Dir:    dir,
		Load:   LoadOptions(conf, logger),
		Logf:   logger.Printf,
		Tracef: trace,
	})
	dctx, dcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Redis may come up after pmproxy: asked again every few
		// seconds, as PCP's pmproxy reconnects, the failure said once
		var c resp.Client
		for said := false; c == nil; {
			cctx, cancel := context.WithTimeout(dctx, 10*time.Second)
			var err error
			c, err = series.Connect(cctx, servers, sc.RedisOptions())
			cancel()
			if err != nil && !said {
				logger.Printf("Info: Cannot connect to Redis: %s", redisWhy(err))
				said = true
			}
			if c == nil {
				select {
				case <-dctx.Done():
					return
				case <-time.After(5 * time.Second):
				}
			}
		}
		defer c.Close()
		d.Run(dctx, c)
	}()
	trace("pmproxy: discover: following archives under %s", dir)
	return func() { dcancel(); <-done }
}

// LoadOptions are the settings of what pmproxy loads into Redis (the
// archives it follows, /series/load), [pmseries] stream.maxlen and
// stream.expire taken as PCP's pmproxy takes them
// (series.Config.ProxyLoadOptions): each stream entry Redis would refuse
// logged in libpcp_web's words.
func LoadOptions(conf Conf, logger *log.Logger) series.LoadOptions {
	o := series.Config(conf).ProxyLoadOptions(time.Now())
	if why := o.StreamsRefused; why != "" {
		// One refusal a stream entry, for as long as the setting stays:
		// bounded as other lines a source can drive are, so that a bad
		// setting cannot fill the disk.
		lim := new(lograte.Limiter)
		o.Refused = func(sid, id string) {
			ok, held := lim.Allow()
			if !ok {
				return
			}
			logger.Printf("Error: stream %s status mismatch at time %s\nRedis reply error: %s", sid, id, why)
			if held > 0 {
				logger.Printf("(%d more such stream errors not logged)", held)
			}
		}
	}
	return o
}
