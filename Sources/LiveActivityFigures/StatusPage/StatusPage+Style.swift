/// The page's one style sheet, inline (the CSP allows nothing else): a single column on a phone,
/// two charts side by side on a wide screen, the system's fonts, a dark scheme when asked for.
/// The alarm is red with the word "Alarm" (never colour alone); each chart has one series, named
/// by its caption, so no colour needs a legend.
extension StatusPage {
    static let style = """
        :root{--fg:#1a1d21;--muted:#5b6470;--bg:#fff;--panel:#f4f6f8;--line:#d5dae0;--ok:#13653f;--okbg:#e3f4ea;\
        --alarm:#fff;--alarmbg:#b3261e;--sent:#2563eb;--failed:#ea7a0c;--active:#7c3aed;--warn:#9a3412;--other:#0f766e}
        @media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#a6adb7;--bg:#15181c;--panel:#1f2328;\
        --line:#3a4048;--ok:#8fdcb0;--okbg:#16372a;--alarmbg:#c5332a;--sent:#6ea1ff;--failed:#ff9f43;\
        --active:#b197fc;--warn:#ffb38a;--other:#5eead4}}
        *{box-sizing:border-box}
        body{margin:0;padding:1rem;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;\
        color:var(--fg);background:var(--bg);max-width:76rem;margin-inline:auto}
        h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:0 0 .5rem}
        header{margin-bottom:.75rem}.asof,.small,figcaption{color:var(--muted);font-size:.9rem}
        .asof{margin:.2rem 0 0}
        section{margin:0 0 1.25rem;padding:1rem;background:var(--panel);border-radius:.6rem}
        .health{border-left:.5rem solid var(--ok);background:var(--okbg)}
        .health h2{color:var(--ok)}
        .health.alarm{background:var(--alarmbg);color:var(--alarm);border-left-color:#6d0f0a}
        .health.alarm h2,.health.alarm code,.health.alarm th,.health.alarm caption{color:var(--alarm)}
        .health ul{margin:.25rem 0 .5rem;padding-left:1.25rem}.health p{margin:.25rem 0 0}
        .sign{display:inline-block;width:1.5rem;height:1.5rem;line-height:1.5rem;text-align:center;\
        border-radius:50%;background:var(--ok);color:var(--okbg);margin-right:.25rem}
        .alarm .sign{background:var(--alarm);color:var(--alarmbg)}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem;margin-bottom:.75rem}
        .card{background:var(--bg);border:1px solid var(--line);border-radius:.5rem;padding:.5rem .75rem}
        .card .label{display:block;color:var(--muted);font-size:.85rem}
        .card .value{font-size:1.6rem;font-weight:600;font-variant-numeric:tabular-nums}
        .card.warn .value{color:var(--warn)}
        .tables,.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:.75rem 1.25rem;align-items:start}
        .charts{grid-template-columns:repeat(auto-fill,minmax(18rem,1fr))}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}table.narrow{max-width:30rem}
        caption{text-align:left;font-weight:600;padding-bottom:.25rem}
        th,td{text-align:left;padding:.2rem .5rem .2rem 0;border-bottom:1px solid var(--line);vertical-align:top}
        thead th{font-size:.85rem;color:var(--muted);font-weight:600}
        .n{text-align:right}th.n{text-align:right}
        tr.bad td{color:var(--warn)}th.group{font-weight:600;padding-top:.5rem}td code{overflow-wrap:anywhere}
        .scroll{overflow-x:auto}th[scope=row]{white-space:nowrap}
        figure{margin:0;min-width:0}
        svg{display:block;width:100%;height:auto;background:var(--bg);border:1px solid var(--line);border-radius:.4rem}
        svg text{font-size:12px;fill:var(--muted)}svg .note{font-size:13px;fill:var(--fg)}
        svg .grid{stroke:var(--line);stroke-width:1}svg .tick{stroke:var(--muted);stroke-width:1}
        .s-active{fill:none;stroke:var(--active);stroke-width:2;stroke-linejoin:round}circle.s-active{fill:var(--active)}
        .s-median,.s-p90{fill:none;stroke:var(--sent);stroke-width:2}.s-p90{stroke-dasharray:5 3}\
        circle.s-median,circle.s-p90{fill:var(--sent);stroke:none}
        .s-sent{fill:var(--sent)}.s-failed{fill:var(--failed)}.s-acked{fill:var(--sent)}.s-other{fill:var(--other)}
        details{margin-top:.35rem}summary{cursor:pointer;color:var(--muted);font-size:.9rem}
        details table{margin-top:.25rem;font-size:.9rem}
        .empty{padding:.75rem;border:1px dashed var(--line);border-radius:.4rem;background:var(--bg)}
        code{font-size:.9em}
        footer{color:var(--muted);font-size:.85rem}
        @media (max-width:30rem){body{padding:.5rem}section{padding:.75rem}.card .value{font-size:1.35rem}\
        th,td{padding-right:.35rem}}
        """
}
