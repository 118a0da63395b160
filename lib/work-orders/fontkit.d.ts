// The part of fontkit (the font reader pdfkit itself uses, same version) that lib/work-orders/pdf.ts
// uses: whether a font has a glyph for a character. fontkit ships no typings.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
