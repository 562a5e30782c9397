#ifndef CFREETYPE_LOADER_H
#define CFREETYPE_LOADER_H

/// Draws a line of UTF-8 text with FreeType (libfreetype.so.6, loaded on first use) into an 8-bit
/// coverage buffer of `width` x `height` pixels, rows top to bottom, the pen starting at `pen_x`
/// on the baseline `baseline_y` (buffer pixels). Coverage adds up (saturating), so that
/// overlapping glyphs stay opaque. `coverage` may be NULL to measure only.
///
/// Returns the line's advance in pixels, or -1 when FreeType or the font cannot be loaded
/// (wh_text_load_error says why).
double wh_text_render(const char *utf8, const char *font_path, double pixel_size,
                      unsigned char *coverage, int width, int height, double pen_x, double baseline_y);

/// Why the last call returned -1, or NULL.
const char *wh_text_load_error(void);

#endif
