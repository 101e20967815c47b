/// The page's style: cards that wrap on a phone, the bar in the daemon's force colour, the
/// heaviest pan in yellow, a check verdict in the colours of a check-weigher's lamps (under
/// amber, ok green, over red), and the weighing session below the pans.
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
        .count-line { display: flex; gap: .5rem; align-items: center; min-height: 1.4rem; font-size: 1.05rem; }
        .count.ambiguous { color: #a05a00; }
        .check:empty { display: none; }
        .check { padding: .1rem .6rem; border-radius: .6rem; font-weight: 700; text-transform: uppercase; color: #fff; }
        .check.under { background: #e0a100; } .check.ok { background: #2a9d3a; } .check.over { background: #d33; }
        .weighing { margin: 0 1rem 1rem; padding: 1rem; background: var(--card); border-radius: .8rem; }
        .weighing-head { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline; }
        .weighing h2 { margin: 0; font-size: 1.1rem; }
        .session-state { font-size: .85rem; color: #555; }
        .session-actions { display: flex; gap: .4rem; }
        .session-message { font-size: .9rem; min-height: 1.2rem; margin: .4rem 0; }
        .weighing-body { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
        /* Before any session: no empty figures, histogram or item table, only the live list. */
        .weighing[data-state="none"] .weighing-body, .weighing[data-state="none"] #session-items { display: none; }
        .stats { display: grid; grid-template-columns: auto auto; gap: .15rem .8rem; margin: 0; }
        .stats dt { color: #555; } .stats dd { margin: 0; font-variant-numeric: tabular-nums; text-align: right; }
        .histogram { width: 20rem; max-width: 100%; height: 9rem; background: #fff; border-radius: .4rem; }
        .histogram rect { fill: #7b3f8c; } .histogram text { font-size: 11px; text-anchor: middle; fill: var(--ink); }
        .item-tables { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: .8rem; }
        table.items { border-collapse: collapse; font-size: .85rem; font-variant-numeric: tabular-nums; }
        table.items caption { text-align: left; font-size: .8rem; color: #555; padding-bottom: .2rem; }
        table.items th, table.items td { padding: .1rem .5rem; text-align: right; }
        table.items tbody { display: block; max-height: 16rem; overflow-y: auto; }
        table.items thead, table.items tbody tr { display: table; width: 100%; table-layout: fixed; }
        table.items tr.removed { color: #777; }
        a.button { font: inherit; padding: .35rem .8rem; border-radius: .4rem; border: 1px solid #888; background: #fff;
                   color: inherit; text-decoration: none; }
        .actions { display: flex; gap: .4rem; flex-wrap: wrap; margin: .4rem 0; }
        button { font: inherit; padding: .35rem .8rem; border-radius: .4rem; border: 1px solid #888; background: #fff; }
        .chart { width: 100%; height: 5rem; background: #fff; border-radius: .4rem; }
        .chart .band { fill: #9db8ff66; stroke: none; } .chart .mean { fill: none; stroke: #2450c8; stroke-width: 1.5; }
        .chart-caption { font-size: .7rem; color: #555; }
        dialog { max-width: 30rem; width: calc(100% - 2rem); border-radius: .8rem; }
        .steps li { margin-bottom: .8rem; } .steps li.done { color: #2a7a36; }
        #wizard-table td { text-align: right; padding: 0 .6rem; }
        .setup { margin: 1rem; padding: 1rem; border: 1px solid #c8a400; border-radius: .8rem; background: #fffbe8; }
        .setup-choices { list-style: none; padding: 0; } .setup-diff { white-space: pre-wrap; font-size: .8rem; }
        @media (max-width: 30rem) { .grams { font-size: 2.1rem; } .login { margin-left: 0; } }
        """#
}
