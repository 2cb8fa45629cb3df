/** The icon every action card shows (`GET /actions/icon.svg`): a vault, in the gateway's colours. */
export const ACTION_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<rect width="512" height="512" rx="96" fill="#14213d"/>
<rect x="96" y="128" width="320" height="256" rx="32" fill="none" stroke="#fca311" stroke-width="28"/>
<circle cx="256" cy="256" r="64" fill="none" stroke="#fca311" stroke-width="24"/>
<path d="M256 192v-24M256 344v-24M192 256h-24M344 256h-24" stroke="#fca311" stroke-width="20" stroke-linecap="round"/>
<path d="M136 384v40M376 384v40" stroke="#e5e5e5" stroke-width="28" stroke-linecap="round"/>
</svg>
`

export const ACTION_ICON_PATH = "/actions/icon.svg"
