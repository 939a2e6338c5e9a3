import qrcode from 'qrcode-generator';
import { useId, useMemo } from 'react';

/** The modules of a QR code for `text` as one SVG path (dark squares), and its size in modules. */
export function qrPath(text: string): { path: string; size: number } {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let path = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.isDark(r, c)) path += `M${c} ${r}h1v1h-1z`;
    }
  }
  return { path, size: n };
}

/** A QR code as inline SVG, dark on white with a quiet zone (scanners need the contrast), named for screen readers. */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { path, size } = useMemo(() => qrPath(text), [text]);
  const titleId = useId();
  const quiet = 4;
  const full = size + quiet * 2;
  return (
    <svg role="img" aria-labelledby={titleId} viewBox={`${-quiet} ${-quiet} ${full} ${full}`} shapeRendering="crispEdges" className={className}>
      <title id={titleId}>{label}</title>
      <rect x={-quiet} y={-quiet} width={full} height={full} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
