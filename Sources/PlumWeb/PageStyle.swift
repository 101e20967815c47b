/// The page's style: cards that wrap on a phone, the bar in the daemon's force colour, the
/// heaviest pan in yellow.
enum PageStyle {
    static let text = #"""
        :root { --heaviest: #ffe600; --ink: #1d1d1f; --card: #f4f4f6; font-family: system-ui, sans-serif; }
        body { margin: 0; color: var(--ink); background: #fff; }
        [hidden] { display: none !important; }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem;
                 border-bottom: 1px solid #ddd; }
        h1 { font-size: 1.2rem; margin: 0; }
        .link { font-size: .85rem; padding: .15rem .5rem; border-radius: 1rem; }
        .link.up { background: #d8f5dd; } .link.down { background: #fde2e2; }
        .login { display: flex; gap: .4rem; margin-left: auto; }
        #logout { margin-left: auto; }
        .message { margin: .5rem 1rem; padding: .5rem; background: #fff4d6; border-radius: .4rem; }
        .status { margin: .5rem 1rem; color: #666; font-size: .85rem; }
        .pans { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; padding: 1rem; }
        .pan { background: var(--card); border-radius: .8rem; padding: 1rem; border: 3px solid transparent; }
        .pan.heaviest { background: var(--heaviest); border-color: #c9a800; }
        .pan.unavailable { border-color: #d33; } .pan.unavailable .grams { color: #888; }
        .pan.flash { animation: flash .6s ease-out 2; }
        @keyframes flash { 0% { box-shadow: 0 0 0 0 #ff2a2a; } 50% { box-shadow: 0 0 0 .8rem #ff2a2a88; }
                           100% { box-shadow: 0 0 0 0 #ff2a2a00; } }
        .pan-head { display: flex; justify-content: space-between; align-items: baseline; }
        .pan h2 { margin: 0; font-size: 1.1rem; }
        .heaviest-label { font-weight: 700; text-transform: uppercase; font-size: .8rem; }
        .grams { font-size: 2.6rem; font-variant-numeric: tabular-nums; margin: .3rem 0; }
        .bar { height: 1.1rem; background: #ddd; border-radius: .55rem; overflow: hidden; }
        .fill { height: 100%; width: 0; transition: width .15s linear; }
        .percent { font-size: .9rem; margin-top: .2rem; }
        .markers { display: flex; flex-wrap: wrap; gap: .3rem; margin: .4rem 0; min-height: 1.4rem; }
        .marker { font-size: .75rem; padding: .1rem .45rem; border-radius: .6rem; background: #fff; opacity: .25; }
        .marker.on { opacity: 1; } .marker.overload.on { background: #ff3b30; color: #fff; }
        .marker.state:empty { display: none; } .marker.state { opacity: 1; background: #fde2e2; }
        .actions { display: flex; gap: .4rem; flex-wrap: wrap; margin: .4rem 0; }
        button { font: inherit; padding: .35rem .8rem; border-radius: .4rem; border: 1px solid #888; background: #fff; }
        .chart { width: 100%; height: 5rem; background: #fff; border-radius: .4rem; }
        .chart .band { fill: #9db8ff66; stroke: none; } .chart .mean { fill: none; stroke: #2450c8; stroke-width: 1.5; }
        .chart-caption { font-size: .7rem; color: #555; }
        dialog { max-width: 30rem; width: calc(100% - 2rem); border-radius: .8rem; }
        .steps li { margin-bottom: .8rem; } .steps li.done { color: #2a7a36; }
        #wizard-table td { text-align: right; padding: 0 .6rem; }
        @media (max-width: 30rem) { .grams { font-size: 2.1rem; } .login { margin-left: 0; } }
        """#
}
